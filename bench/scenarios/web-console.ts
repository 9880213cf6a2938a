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
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../test/e2e/support/browser.js';
import { ensureWebBuild } from '../../test/e2e/support/global-setup.js';
import { seedServers } from '../../test/e2e/support/seed.js';
import { startConsoleService, type ConsoleService } from '../../test/e2e/support/service.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVERS = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const KB = 1000;
const LIMIT_KB = { login: 250, push: 400 } as const;
const RATIO_GOAL = 1.5;
type Route = keyof typeof LIMIT_KB;

/** The lazy chunks a route needs beyond the entry (see web/src/app/router.tsx). */
const ROUTE_CHUNKS: Record<Route, string[]> = {
  login: ['src/pages/login/LoginPage.tsx'],
  push: ['src/app/Shell.tsx', 'src/pages/push/PushPage.tsx'],
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

interface Weight {
  files: string[];
  raw: number;
  gzip: number;
}

const gzipSize = (b: Buffer) => zlib.gzipSync(b).length;

function manifestWeight(route: Route): Weight {
  const dist = path.join(ROOT, 'web/dist');
  const m = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(m).find((k) => m[k].isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  const files = new Set<string>();
  const add = (key: string) => {
    const c = m[key];
    if (!c) throw new Error(`the manifest has no chunk ${key}`);
    if (files.has(c.file)) return;
    files.add(c.file);
    for (const i of c.imports ?? []) add(i);
  };
  add(entry);
  for (const k of ROUTE_CHUNKS[route]) add(k);
  const js = [...files].filter((f) => f.endsWith('.js')).sort();
  let raw = 0;
  let gzip = 0;
  for (const f of js) {
    const b = fs.readFileSync(path.join(dist, f));
    raw += b.length;
    gzip += gzipSize(b);
  }
  return { files: js, raw, gzip };
}

/** Every page module the router imports lazily (read from web/src/app/router.tsx). */
function routerPages(): string[] {
  const router = fs.readFileSync(path.join(ROOT, 'web/src/app/router.tsx'), 'utf8');
  // Page modules only (a route's data loader, like servers-query, is not a page).
  return [...router.matchAll(/import\('\.\.\/pages\/([^']+Page)'\)/g)].map((m) => `src/pages/${m[1]}.tsx`);
}

/**
 * Each router page: whether the build made it a lazy chunk of its own, and its gzipped
 * JavaScript beyond what the entry and the signed-in shell already loaded.
 */
function pageChunks(): { pages: Record<string, { own_chunk: boolean; extra_gzip_kb: number }>; pass: boolean } {
  const dist = path.join(ROOT, 'web/dist');
  const m = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk & { isDynamicEntry?: boolean }>;
  const closure = (keys: string[]): Set<string> => {
    const files = new Set<string>();
    const add = (key: string) => {
      const c = m[key];
      if (!c || files.has(c.file)) return;
      files.add(c.file);
      for (const i of c.imports ?? []) add(i);
    };
    for (const k of keys) add(k);
    return files;
  };
  const entry = Object.keys(m).find((k) => m[k].isEntry) ?? '';
  const shell = closure([entry, 'src/app/Shell.tsx']);
  const pages: Record<string, { own_chunk: boolean; extra_gzip_kb: number }> = {};
  let pass = true;
  for (const page of routerPages()) {
    const own = Boolean(m[page]?.isDynamicEntry) && !shell.has(m[page]?.file ?? '');
    pass &&= own;
    const extra = [...closure([page])].filter((f) => f.endsWith('.js') && !shell.has(f));
    const gzip = extra.reduce((n, f) => n + gzipSize(fs.readFileSync(path.join(dist, f))), 0);
    pages[page.replace(/^src\/pages\//, '')] = { own_chunk: own, extra_gzip_kb: round(gzip / KB, 1) };
  }
  return { pages, pass };
}

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

const PEER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Servers</title><script src="/peer.js" defer></script></head>
<body><h1>Servers</h1><p id="count"></p>
<table aria-label="Servers"><thead><tr><th>Name</th><th>Host</th><th>Status</th><th>Tags</th><th>Last heartbeat</th></tr></thead><tbody></tbody></table>
</body></html>`;

// The same first page the console shows (sorted by name, 50 rows), built with plain DOM calls.
const PEER_JS = `
fetch('/servers.json').then((r) => r.json()).then((servers) => {
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const body = document.querySelector('tbody');
  for (const s of servers.slice(0, 50)) {
    const tr = document.createElement('tr');
    for (const v of [s.name, s.host, s.status, (s.tags || []).join(', '), s.last_heartbeat_at || '']) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  document.getElementById('count').textContent = servers.length.toLocaleString('en-US') + ' servers';
});`;

/** The peer: three static files from memory on a plain node:http server, uncompressed like the service. */
async function startPeer(json: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const files: Record<string, [string, Buffer]> = {
    '/peer.html': ['text/html; charset=utf-8', Buffer.from(PEER_HTML)],
    '/peer.js': ['text/javascript; charset=utf-8', Buffer.from(PEER_JS)],
    '/servers.json': ['application/json', json],
  };
  const server = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f[0], 'content-length': f[1].length, 'cache-control': 'no-cache' }).end(f[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

/**
 * The primary peer: the same console build rendering the same table from static JSON files — the
 * answers the page asks for, captured once from the service — served from memory by node:http.
 * What differs from the real run is only the service answering live for 10,000 servers.
 */
async function startStaticConsole(api: Map<string, Buffer>): Promise<{ url: string; close(): Promise<void> }> {
  const dist = path.join(ROOT, 'web/dist');
  const files = new Map<string, Buffer>();
  for (const e of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && !/\.(gz|br|map)$/.test(e.name)) files.set(`/${path.relative(dist, path.join(e.parentPath, e.name))}`, fs.readFileSync(path.join(e.parentPath, e.name)));
  }
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const answer = api.get(url);
    if (answer) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
    if (url.startsWith('/api/') || url.startsWith('/ws/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not captured"}');
    const name = url.split('?')[0];
    const body = files.get(name) ?? (files.get('/index.html') as Buffer);
    const type = TYPES[path.extname(files.has(name) ? name : '/index.html')] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
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
      for (const route of ['login', 'push'] as Route[]) {
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
