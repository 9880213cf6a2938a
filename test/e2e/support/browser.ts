/**
 * Debian's Chromium driven by playwright-core, for journeys through the console.
 *
 *   const browser = await launchChromium();
 *   const cp = await openConsole(browser, svc.url, { viewport: 'phone', colorScheme: 'dark' });
 *   await cp.page.goto('/login');                    // baseURL is the service
 *   await login(cp.page, 'admin', 'pw');              // waits until it leaves /login
 *   await expectAccessible(cp.page);                  // axe: fails on serious/critical findings
 *   cp.allow(/status of 401/);                        // a console error this journey expects
 *   cp.expectNoProblems();                            // console errors, page errors, CSP violations
 *   await cp.close();
 *
 * Each context sends its own X-Forwarded-For (the service trusts one hop), so a journey's failed
 * logins never lock out another's. Most tests want `setupE2E()` from ./e2e.ts, which does all of this
 * around vitest's hooks.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** The two widths every journey runs at: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  viewport: ViewportName;
  /** The address this context claims (X-Forwarded-For). */
  ip: string;
  /** Console errors, uncaught page errors and CSP violations seen so far (minus allowed ones). */
  problems(): string[];
  /** Tolerate console errors matching `re` (seen before or after; e.g. the 401 of a deliberately wrong password). */
  allow(re: RegExp): void;
  /** Throws, listing them, when there were problems. */
  expectNoProblems(): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  viewport?: ViewportName;
  colorScheme?: 'light' | 'dark';
  /** X-Forwarded-For of every request of this context; default: a fresh address per context. */
  ip?: string;
  /** navigator.language (the console's first language follows it); default en-US. */
  locale?: string;
}

/**
 * Console errors every page may show that are not a journey's fault, each said why. Keep it short.
 */
export const CONSOLE_KNOWN: Array<{ re: RegExp; why: string }> = [];

let ipCounter = 0;
/** A distinct documentation-range address per context (198.18.0.0/15 is for benchmarking). */
export function freshIp(): string {
  ipCounter++;
  return `198.18.${(process.pid % 250) + 1}.${(ipCounter % 250) + 1}`;
}

export async function openConsole(browser: Browser, baseURL: string, o: OpenOptions = {}): Promise<ConsolePage> {
  const viewport = o.viewport ?? 'desktop';
  const ip = o.ip ?? freshIp();
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    colorScheme: o.colorScheme ?? 'light',
    locale: o.locale ?? 'en-US',
    extraHTTPHeaders: { 'x-forwarded-for': ip },
    // Chromium's phone emulation: touch and a mobile viewport, as at 390 px on a real phone.
    ...(viewport === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  // A CSP violation is also a console error in Chromium, but not every one is (e.g. report-only);
  // this listener runs before the page's own scripts, so none is missed.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = await context.newPage();
  const seen: string[] = [];
  const allowed: RegExp[] = CONSOLE_KNOWN.map((k) => k.re);
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const loc = m.location();
    seen.push(`console.error: ${m.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
  });
  page.on('pageerror', (e) => seen.push(`page error: ${e.stack ?? e.message}`));
  page.on('crash', () => seen.push('page crashed'));
  const problems = () => seen.filter((p) => !allowed.some((re) => re.test(p)));
  return {
    page,
    context,
    viewport,
    ip,
    problems,
    allow: (re) => void allowed.push(re),
    expectNoProblems() {
      const p = problems();
      if (p.length) throw new Error(`the page reported ${p.length} problem(s) at ${viewport}:\n  ${p.join('\n  ')}`);
    },
    close: () => context.close(),
  };
}

let axeSource: string | null = null;

export interface AxeOptions {
  /** CSS selectors to leave out (say why in the test). */
  exclude?: string[];
  /** Rule ids to switch off (say why in the test). */
  disableRules?: string[];
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Findings axe reports that are not the console's to fix, each matched by rule and element and
 * said why. Keep this list short: anything the console can fix belongs in the console.
 */
export const AXE_KNOWN: Array<{ rule: string; selector: string; why: string }> = [
  {
    rule: 'aria-required-children',
    selector: '[data-menu-dropdown]:has(> [role="presentation"][tabindex="-1"][data-autofocus])',
    why: "Mantine's Menu puts a focus sentinel (role=presentation, tabindex=-1) inside role=menu; it is never in the tab order",
  },
];

/**
 * Runs axe-core on the page as it is now and fails on serious or critical violations, listing each
 * with the elements it found. The console's CSP forbids inline scripts, so axe is evaluated through
 * the DevTools protocol (page.evaluate), which the CSP does not govern.
 */
export async function expectAccessible(page: Page, o: AxeOptions = {}): Promise<void> {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // A page that polls never goes idle for long: wait a little for its data, not for ever.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource}\n;undefined`);
  let bad = await seriousViolations(page, o);
  // A finding on something mid-transition (a toast fading out over a dialog's overlay fading in
  // measured 1.2:1 once) is gone a moment later; a real one is still there. Only those count.
  if (bad.length) {
    await page.waitForTimeout(700);
    await settle(page);
    const again = await seriousViolations(page, o);
    const seen = new Set(bad.flatMap((v) => v.nodes.map((n) => `${v.id} ${JSON.stringify(n.target)}`)));
    bad = again
      .map((v) => ({ ...v, nodes: v.nodes.filter((n) => seen.has(`${v.id} ${JSON.stringify(n.target)}`)) }))
      .filter((v) => v.nodes.length > 0);
  }
  if (bad.length) {
    const lines = bad.map(
      (v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.slice(0, 5).map((n) => `      ${JSON.stringify(n.target)} ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`).join('\n')}`,
    );
    throw new Error(`axe found ${bad.length} serious/critical violation(s) on ${page.url()}:\n  ${lines.join('\n  ')}`);
  }
}

/** Waits until no finite transition runs (menus, drawers, toasts; spinners loop for ever), at most 3 s. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(300);
  await page
    .waitForFunction(
      () => document.getAnimations().every((x) => x.playState !== 'running' || x.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 3_000, polling: 50 },
    )
    .catch(() => {});
}

/** axe's serious and critical findings on the page as it is now, known ones left out. */
async function seriousViolations(page: Page, o: AxeOptions): Promise<AxeViolation[]> {
  const violations = await page.evaluate(
    async ({ exclude, disableRules, known }) => {
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
      const rules = Object.fromEntries(disableRules.map((r) => [r, { enabled: false }]));
      const r = await axe.run(exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document, { resultTypes: ['violations'], rules });
      const isKnown = (rule: string, target: unknown[]) => {
        const el = target.length === 1 && typeof target[0] === 'string' ? document.querySelector(target[0]) : null;
        return el !== null && known.some((k) => k.rule === rule && el.matches(k.selector));
      };
      return r.violations
        .map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          helpUrl: v.helpUrl,
          nodes: v.nodes.filter((n) => !isKnown(v.id, n.target)).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
        }))
        .filter((v) => v.nodes.length > 0);
    },
    { exclude: o.exclude ?? [], disableRules: o.disableRules ?? [], known: AXE_KNOWN.map(({ rule, selector }) => ({ rule, selector })) },
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export interface LoginOptions {
  /** Wait until the page has left /login (default true); false for a TOTP step or a refusal. */
  wait?: boolean;
}

/**
 * Signs in through the login form (English labels). Goes to /login first unless already there.
 */
export async function login(page: Page, username: string, password: string, o: LoginOptions = {}): Promise<void> {
  if (!new URL(page.url(), 'http://x').pathname.startsWith('/login')) await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (o.wait !== false) await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });
}

/** The path (with query) the page shows now. */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
}

/**
 * Follows a navigation link of the shell by its visible name. On a phone the navigation is a
 * drawer pushed off-screen (still "visible" to Playwright), so the burger opens it first.
 */
export async function clickNav(page: Page, name: string): Promise<void> {
  const link = page.getByRole('navigation').getByRole('link', { name, exact: true });
  await link.waitFor({ state: 'attached', timeout: 10_000 }).catch(() => {
    throw new Error(`no navigation link "${name}" on ${page.url()} (is a dialog open? it hides the rest from the accessibility tree)`);
  });
  const width = page.viewportSize()?.width ?? 1280;
  const onScreen = async () => {
    const box = await link.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= width + 1;
  };
  if (!(await onScreen())) {
    await page.getByRole('button', { name: /navigation|导航/ }).click();
    await expect.poll(onScreen, { timeout: 5_000 }).toBe(true);
  }
  await link.click();
}

/** The page's main heading (h1). */
export function mainHeading(page: Page) {
  return page.getByRole('heading', { level: 1 });
}
