/**
 * web-console: what the browser console costs.
 *
 * (a) Weight: the gzipped JavaScript a first visit loads for /login (goal <= 250 KB) and for /push
 *     (goal <= 400 KB), KB = 1000 bytes, gzip at zlib's default level. Counted from
 *     web/dist/.vite/manifest.json (the entry and its static imports, plus the route's lazy chunks
 *     and theirs: the login page; the signed-in shell and the push page), and cross-checked in
 *     Chromium by summing the script files a fresh context really fetches on those two pages.
 *     Every page of the router must be its own lazy chunk (a page pulled into the entry or the
 *     shell would weigh on every first visit): each one's gzipped JavaScript beyond the signed-in
 *     shell is listed, and a page that is not a chunk of its own fails the scenario.
 * (b) Speed: with 10,000 servers in the database, the median time from navigation to a servers
 *     table that shows its first row and its count ("10,000 servers"), in headless Chromium, signed
 *     in, a fresh context per run; against the peer: the same console rendering the same table from
 *     static JSON files (its API answers captured once, served from memory). Goal: console / peer
 *     <= 1.5. Also reported: a plain-DOM page (no framework) over a static JSON of all 10,000
 *     servers, and where the console's time goes (scripts in, servers query sent and answered).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../test/e2e/support/browser.js';
import { ensureWebBuild } from '../../test/e2e/support/global-setup.js';
import { seedServers } from '../../test/e2e/support/seed.js';
import { startConsoleService, type ConsoleService } from '../../test/e2e/support/service.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';
import { startPeer, startStaticConsole } from '../support/console-peers.js';
import { gzipSize, KB, manifestWeight, pageChunks, type ConsoleRoute, type Weight } from '../support/console-weight.js';

const SERVERS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const LIMIT_KB: Record<ConsoleRoute, number> = { login: 250, push: 400 };
const RATIO_GOAL = 1.5;

/** The script files a fresh context fetches while `open` loads a page, and their sizes. */
async function browserWeight(ctx: BrowserContext, open: (page: Page) => Promise<void>): Promise<Weight & { encodings: string[] }> {
  const page = await ctx.newPage();
  const seen = new Map<string, Buffer>();
  const encodings = new Set<string>();
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.endsWith('.js') || res.status() !== 200) return;
    encodings.add(res.headers()['content-encoding'] ?? 'identity');
    pending.push(res.body().then((b) => void seen.set(url.pathname.slice(1), b)));
  });
  await open(page);
  await page.waitForLoadState('networkidle').catch(() => {});
  await Promise.all(pending);
  await page.close();
  const files = [...seen.keys()].sort();
  let raw = 0;
  let gzip = 0;
  for (const b of seen.values()) {
    raw += b.length;
    gzip += gzipSize(b);
  }
  return { files, raw, gzip, encodings: [...encodings] };
}

/** A context signed in as the service's admin (the tokens the login page would have stored). */
async function signedInContext(browser: Browser, svc: ConsoleService): Promise<BrowserContext> {
  const pair = await svc.loginPair();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const session = JSON.stringify({ access: pair.access_token, refresh: pair.refresh_token, accessExpiresAt: Date.now() + pair.expires_in * 1000 });
  await ctx.addInitScript((s) => localStorage.setItem('fleet.session', s), session);
  return ctx;
}

/**
 * In the page, polled every frame: milliseconds since navigation start when the servers table
 * shows a first row with text and the count of 10,000 is on screen.
 */
async function timeToTable(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const row = document.querySelector('table[aria-label="Servers"] tbody tr');
      if (!row?.textContent?.trim()) return false;
      const text = document.body.textContent ?? '';
      return text.includes('10,000 servers') || text.includes('10000 servers') ? performance.now() : false;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

interface Phases {
  /** The last script file in (entry, shell and page chunks). */
  scripts_loaded: number;
  /** The servers page asks for its first page of rows. */
  query_sent: number;
  query_answered: number;
}

/** Where the console's time goes, from the page's resource timings (ms since navigation start). */
async function phasesOf(page: Page): Promise<Phases> {
  return page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const scripts = entries.filter((e) => e.name.endsWith('.js'));
    const query = entries.find((e) => e.name.includes('/api/servers/search'));
    return {
      scripts_loaded: Math.max(0, ...scripts.map((e) => e.responseEnd)),
      query_sent: query?.startTime ?? -1,
      query_answered: query?.responseEnd ?? -1,
    };
  });
}

/** The API answers the servers page asks for on a first visit, as the service gives them now. */
async function captureApi(browser: Browser, svc: ConsoleService): Promise<Map<string, Buffer>> {
  const ctx = await signedInContext(browser, svc);
  const page = await ctx.newPage();
  const urls = new Set<string>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/') && r.method() === 'GET') urls.add(`${u.pathname}${u.search}`);
  });
  await timeToTable(page, `${svc.url}/servers`);
  await page.waitForLoadState('networkidle').catch(() => {});
  await ctx.close();
  const token = await svc.login();
  const api = new Map<string, Buffer>();
  for (const u of urls) {
    const res = await fetch(`${svc.url}${u}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.ok) api.set(u, Buffer.from(await res.arrayBuffer()));
  }
  if (![...api.keys()].some((u) => u.startsWith('/api/servers/search'))) throw new Error('the servers page asked for no /api/servers/search');
  return api;
}

export const scenario: Scenario = {
  name: 'web-console',
  async run() {
    ensureWebBuild();
    const svc = await startConsoleService({ env: { LOG_LEVEL: 'error' } });
    const browser = await launchChromium();
    let peer: Awaited<ReturnType<typeof startPeer>> | null = null;
    let staticConsole: Awaited<ReturnType<typeof startStaticConsole>> | null = null;
    try {
      // (a) weight
      const weights: Record<string, unknown> = {};
      let weightPass = true;
      for (const route of ['login', 'push'] as ConsoleRoute[]) {
        const fromManifest = manifestWeight(route);
        const ctx = route === 'login' ? await browser.newContext() : await signedInContext(browser, svc);
        const inBrowser = await browserWeight(ctx, async (page) => {
          await page.goto(`${svc.url}/${route}`);
          await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 30_000 });
        });
        await ctx.close();
        const worst = Math.max(fromManifest.gzip, inBrowser.gzip);
        const pass = worst <= LIMIT_KB[route] * KB;
        weightPass &&= pass;
        weights[route] = {
          goal_kb: LIMIT_KB[route],
          manifest_gzip_kb: round(fromManifest.gzip / KB, 1),
          manifest_raw_kb: round(fromManifest.raw / KB, 1),
          chromium_gzip_kb: round(inBrowser.gzip / KB, 1),
          chromium_raw_kb: round(inBrowser.raw / KB, 1),
          chromium_content_encoding: inBrowser.encodings,
          files: fromManifest.files.length,
          only_in_manifest: fromManifest.files.filter((f) => !inBrowser.files.includes(f)),
          only_in_chromium: inBrowser.files.filter((f) => !fromManifest.files.includes(f)),
          pass,
        };
      }

      const perPage = pageChunks();
      weightPass &&= perPage.pass;
      weights.pages = perPage.pages;

      // (b) 10,000 servers: the console against a plain page over a static JSON of the same fleet.
      const t0 = performance.now();
      await seedServers(svc.databaseUrl, SERVERS);
      const seedMs = performance.now() - t0;
      const all = await svc.api<unknown[]>('GET', '/api/servers', undefined, { token: await svc.login() });
      if (all.status !== 200 || all.body.length !== SERVERS) throw new Error(`GET /api/servers answered ${all.status} with ${all.body.length} servers`);
      const json = Buffer.from(JSON.stringify(all.body));
      peer = await startPeer(json);
      staticConsole = await startStaticConsole(await captureApi(browser, svc));

      const consoleMs: number[] = [];
      const staticMs: number[] = [];
      const peerMs: number[] = [];
      const phases: Phases[] = [];
      // One warm-up each (Chromium's own start-up costs, the service's first queries), then alternate.
      for (let i = 0; i <= RUNS; i++) {
        const ctx = await signedInContext(browser, svc);
        const page = await ctx.newPage();
        const c = await timeToTable(page, `${svc.url}/servers`);
        if (i > 0) phases.push(await phasesOf(page));
        await ctx.close();
        const sctx = await signedInContext(browser, svc);
        const st = await timeToTable(await sctx.newPage(), `${staticConsole.url}/servers`);
        await sctx.close();
        const pctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const p = await timeToTable(await pctx.newPage(), `${peer.url}/peer.html`);
        await pctx.close();
        if (i > 0) {
          consoleMs.push(c);
          staticMs.push(st);
          peerMs.push(p);
        }
      }
      const value = median(consoleMs);
      const baseline = median(staticMs);
      const ratio = value / baseline;
      return {
        value: round(value, 1),
        unit: 'ms',
        baseline: round(baseline, 1),
        ratio: round(ratio, 2),
        goal: `<= ${RATIO_GOAL} (servers table from the service vs the same table from static JSON); JS gzip login <= ${LIMIT_KB.login} KB, push <= ${LIMIT_KB.push} KB; every page its own chunk`,
        pass: ratio <= RATIO_GOAL && weightPass,
        rounds: RUNS,
        details: {
          servers: SERVERS,
          runs: RUNS,
          console_ms: consoleMs.map((v) => round(v, 1)),
          static_console_ms: staticMs.map((v) => round(v, 1)),
          static_console: 'the same console build and table, its API answers captured once and served as static JSON files',
          plain_dom_ms: peerMs.map((v) => round(v, 1)),
          plain_dom_median_ms: round(median(peerMs), 1),
          plain_dom_ratio: round(value / median(peerMs), 2),
          plain_dom: 'static servers.json (GET /api/servers of the same fleet) + plain-DOM page rendering the first 50 rows by name (no framework)',
          peer_json_kb: round(json.length / KB, 1),
          console_phases_median_ms: Object.fromEntries(
            (Object.keys(phases[0]) as Array<keyof Phases>).map((k) => [k, round(median(phases.map((p) => p[k])), 1)]),
          ),
          seed_ms: round(seedMs, 0),
          weights,
        },
      };
    } finally {
      await browser.close();
      await peer?.close();
      await staticConsole?.close();
      await svc.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
