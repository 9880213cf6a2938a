/**
 * One call per test file sets up a journey suite: the real service and Chromium start before the
 * file's tests, every page a test opens is checked for console errors, page errors and CSP
 * violations and closed after it, and both stop after the file.
 *
 *   const e2e = setupE2E();
 *   describe.each(WIDTHS)('servers at %s', (viewport) => {
 *     it('adds a server', async () => {
 *       const { page } = await e2e.signedIn(viewport);         // logged in as the first admin, on '/'
 *       await page.goto('/servers');
 *       ...
 *       await expectAccessible(page);
 *     });
 *   });
 *
 * `e2e.svc` is the service (see ./service.ts: `api`, `login`, `databaseUrl`...), `e2e.open()` a
 * fresh signed-out page, `e2e.sshd` the suite's real sshd (for servers to connect to).
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { SshdInfo } from '../../fixtures/sshd.js';
import { launchChromium, login, openConsole, type ConsolePage, type OpenOptions, type ViewportName } from './browser.js';
import { startConsoleService, type ConsoleService, type StartOptions } from './service.js';

/** Every journey runs at both widths: `describe.each(WIDTHS)(...)`. */
export const WIDTHS: ViewportName[] = ['desktop', 'phone'];

export interface E2E {
  readonly svc: ConsoleService;
  readonly browser: Browser;
  readonly sshd: SshdInfo;
  /** A new browser context (its own storage and X-Forwarded-For), signed out. */
  open(viewport?: ViewportName, o?: Omit<OpenOptions, 'viewport'>): Promise<ConsolePage>;
  /** Like open, then signed in through the form (default: the first admin); the page is on '/' or `next`. */
  signedIn(viewport?: ViewportName, o?: Omit<OpenOptions, 'viewport'> & { username?: string; password?: string; next?: string }): Promise<ConsolePage>;
  /** A server that signs in to the suite's sshd with its throwaway key (through the API, as the admin): its id. */
  createKeyServer(token: string, s: KeyServer): Promise<number>;
}

export interface KeyServer {
  name: string;
  tags?: string[];
  target_path?: string;
  /** Another port than the sshd's (a closed one makes an unreachable server). */
  port?: number;
}

export function setupE2E(start: StartOptions = {}): E2E {
  let svc: ConsoleService | null = null;
  let browser: Browser | null = null;
  const opened: ConsolePage[] = [];

  beforeAll(async () => {
    [svc, browser] = await Promise.all([startConsoleService(start), launchChromium()]);
  });

  afterEach(async () => {
    const problems = opened.flatMap((p) => p.problems().map((m) => `[${p.viewport}] ${m}`));
    await Promise.all(opened.splice(0).map((p) => p.close().catch(() => {})));
    if (problems.length) throw new Error(`the console reported ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  const e2e: E2E = {
    get svc() {
      if (!svc) throw new Error('the service is not running (call setupE2E() at the top of the test file)');
      return svc;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running');
      return browser;
    },
    get sshd() {
      return inject('sshd');
    },
    async open(viewport = 'desktop', o = {}) {
      const cp = await openConsole(e2e.browser, e2e.svc.url, { ...o, viewport });
      opened.push(cp);
      return cp;
    },
    async signedIn(viewport = 'desktop', o = {}) {
      const cp = await e2e.open(viewport, o);
      await cp.page.goto(o.next ? `/login?next=${encodeURIComponent(o.next)}` : '/login');
      await login(cp.page, o.username ?? e2e.svc.admin.username, o.password ?? e2e.svc.admin.password);
      return cp;
    },
    async createKeyServer(token, o) {
      const s = e2e.sshd;
      const body = { host: s.host, port: s.port, username: s.username, auth_type: 'key', private_key: s.privateKey, ...o };
      const res = await e2e.svc.api<{ id: number }>('POST', '/api/servers', body, { token });
      if (res.status !== 201) throw new Error(`creating server ${o.name}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
  };
  return e2e;
}

/** The first name of setupE2E; biome takes any use… call for a React hook, so prefer setupE2E. */
export const useE2E = setupE2E;
