/**
 * `npm run screenshots`: PNGs of the console for the documentation, in docs/screenshots/, taken
 * from the real service with a demo fleet: 40 servers with tags, their statuses from real agent
 * heartbeats (one over the CPU threshold, so an alert is active; a few silent), and push batches
 * made by real pushes to a local sshd (one of them with a failed server).
 *
 * Pages: login, dashboard, servers, push (the flow's start and a finished batch), history — each at 1280 px light and dark, and at 390 px.
 * Warns when no CJK font is installed (the Chinese UI would show boxes in any 中文 screenshot).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startSshd, type SshdInstance } from '../test/fixtures/sshd.js';
import { launchChromium, login } from '../test/e2e/support/browser.js';
import { ensureWebBuild } from '../test/e2e/support/global-setup.js';
import { seedServers } from '../test/e2e/support/seed.js';
import { startConsoleService, type ConsoleService } from '../test/e2e/support/service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'screenshots');
const ADMIN = { username: 'admin', password: 'demo-password-1' };
/** The pages shot; `push-batch` is the push page following the demo's partial batch. */
const pagesFor = (batchId: string) => [
  { name: 'dashboard', path: '/' },
  { name: 'servers', path: '/servers' },
  { name: 'push', path: '/push' },
  { name: 'push-batch', path: `/push?batch=${encodeURIComponent(batchId)}` },
  { name: 'history', path: '/history' },
];
const SHOTS = [
  { suffix: '1280-light', width: 1280, height: 800, scheme: 'light' as const },
  { suffix: '1280-dark', width: 1280, height: 800, scheme: 'dark' as const },
  { suffix: '390', width: 390, height: 844, scheme: 'light' as const },
];

function warnWithoutCjkFont(): void {
  let fonts = '';
  try {
    fonts = execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' });
  } catch {
    // no fontconfig: treat as no font
  }
  if (!fonts.trim()) process.stderr.write('warning: no CJK font installed (fc-list :lang=zh is empty): Chinese text would render as boxes; apt-get install fonts-noto-cjk\n');
}

async function ok<T>(svc: ConsoleService, what: string, p: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** 40 servers: heartbeats from the 34 that are up (web-07 runs hot), 4 silent for an hour, 2 never heard from. */
async function demoFleet(svc: ConsoleService, token: string): Promise<void> {
  const roles = ['web', 'api', 'db', 'cache', 'worker'];
  const ids = await seedServers(svc.databaseUrl, 40, {
    name: (i) => `${roles[i % 5]}-${String(Math.floor(i / 5) + 1).padStart(2, '0')}`,
    tags: (i) => [i < 24 ? 'production' : i < 34 ? 'staging' : 'lab', roles[i % 5]],
    status: (i) => (i >= 34 && i < 38 ? 'offline' : 'unknown'),
    host: (i) => `10.20.${Math.floor(i / 5)}.${(i % 5) + 11}`,
  });
  const ts = () => Math.floor(Date.now() / 1000);
  await Promise.all(
    ids.slice(0, 34).map(async (id, i) => {
      const { agent_token } = await ok(svc, 'agent token', svc.api<{ agent_token: string }>('POST', `/api/servers/${id}/agent-token`, undefined, { token }));
      const reading = { cpu: i === 30 ? 96 : 8 + ((i * 17) % 60), mem: 30 + ((i * 11) % 50), disk: 20 + ((i * 7) % 60), ts: ts(), load: 0.4 + (i % 5) / 3, uptime: 86_400 * (3 + i) };
      const r = await fetch(`${svc.url}/api/agent/heartbeat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(reading),
      });
      if (!r.ok) throw new Error(`heartbeat: ${r.status} ${await r.text()}`);
    }),
  );
}

/** Three servers on a local sshd (one with a port nobody listens on) and two real pushes. */
/** Two real pushes; returns the second (partial) batch's id. */
async function demoPushes(svc: ConsoleService, token: string, sshd: SshdInstance, stagingPrefix: string): Promise<string> {
  const source = `${stagingPrefix}demo-site`;
  fs.mkdirSync(path.join(source, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(source, 'index.html'), '<h1>Demo</h1>\n');
  fs.writeFileSync(path.join(source, 'assets', 'app.css'), 'body { margin: 0 }\n');
  fs.writeFileSync(path.join(source, 'config.json'), '{"feature":true}\n');
  const target = path.join(sshd.homeDir, `demo-${process.pid}`);
  const create = (name: string, port: number) =>
    ok(
      svc,
      `create ${name}`,
      svc.api<{ id: number }>(
        'POST',
        '/api/servers',
        { name, host: sshd.host, port, username: sshd.username, auth_type: 'key', private_key: sshd.privateKey, tags: ['production', 'edge'], target_path: target },
        { token },
      ),
    );
  const a = await create('edge-01', sshd.port);
  const b = await create('edge-02', sshd.port);
  const down = await create('edge-03', 1); // nothing listens on port 1: this server's push fails
  const push = (ids: number[]) =>
    ok(svc, 'push', svc.api<{ batch_id: string }>('POST', '/api/sync/files', { server_ids: ids, source_path: source, sync_mode: 'incremental' }, { token }));
  await push([a.id, b.id]);
  fs.writeFileSync(path.join(source, 'index.html'), '<h1>Demo, second release</h1>\n');
  return (await push([a.id, b.id, down.id])).batch_id;
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 15_000 }).catch(() => {});
  // Skeletons give way to data, transitions end.
  await page.waitForTimeout(800);
}

async function shoot(browser: Browser, svc: ConsoleService, shot: (typeof SHOTS)[number], pages: ReturnType<typeof pagesFor>): Promise<string[]> {
  const problems: string[] = [];
  const ctx = await browser.newContext({ baseURL: svc.url, viewport: { width: shot.width, height: shot.height }, colorScheme: shot.scheme, locale: 'en-US', deviceScaleFactor: 1 });
  // The console remembers the colour scheme per browser; start each context with the one wanted.
  await ctx.addInitScript((scheme) => localStorage.setItem('fleet.color-scheme', scheme), shot.scheme);
  const page = await ctx.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`${shot.suffix} console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${shot.suffix} page error: ${e.message}`));
  await page.goto('/login');
  await settle(page);
  await page.screenshot({ path: path.join(OUT, `login-${shot.suffix}.png`) });
  await login(page, ADMIN.username, ADMIN.password);
  for (const p of pages) {
    await page.goto(p.path);
    await settle(page);
    await page.screenshot({ path: path.join(OUT, `${p.name}-${shot.suffix}.png`) });
  }
  await ctx.close();
  return problems;
}

async function main(): Promise<void> {
  warnWithoutCjkFont();
  ensureWebBuild();
  fs.mkdirSync(OUT, { recursive: true });
  // A short, fixed staging path: it shows on the push page.
  const staging = path.join(os.tmpdir(), 'fleet-demo');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const stagingPrefix = `${staging}/upload_`;
  const sshd = await startSshd();
  const svc = await startConsoleService({ admin: ADMIN, env: { STAGING_PREFIX: stagingPrefix, LOG_LEVEL: 'error' } });
  let browser: Browser | null = null;
  try {
    const token = await svc.login();
    await demoFleet(svc, token);
    const batchId = await demoPushes(svc, token, sshd, stagingPrefix);
    browser = await launchChromium();
    const problems: string[] = [];
    for (const shot of SHOTS) problems.push(...(await shoot(browser, svc, shot, pagesFor(batchId))));
    for (const p of problems) process.stderr.write(`warning: ${p}\n`);
    process.stdout.write(`wrote ${fs.readdirSync(OUT).filter((f) => f.endsWith('.png')).length} PNGs to ${path.relative(process.cwd(), OUT)}\n`);
  } finally {
    await browser?.close();
    await svc.stop();
    await sshd.stop();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
