/** The real entry point as a process: first start, graceful stop, refusals with clear messages. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './modules/push/push-helpers.js';
import { childPids, freePort, ProcessScope, waitHealthy } from './helpers/service-process.js';

const scope = new ProcessScope();
afterEach(() => scope.cleanup());
const start = (env: Record<string, string>) => scope.start(env);
const tempDir = () => scope.tempDir();

describe('server process', () => {
  it('first start: the generated password is framed on stderr at any log level and kept in DATA_DIR until the first login; keys kept; stops gracefully', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const p = start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' });
    expect(await waitHealthy(port, 60_000)).toMatchObject({ status: 'ok', db: 'ok', cache: 'ok' });
    const password = /\| Generated password: {2}(\S+) +\|/.exec(p.err())?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(p.err()).toMatch(/\n\+-+\+\n\| First administrator: admin +\|\n/);
    expect(p.out()).toBe('');
    const file = path.join(dataDir, 'initial-admin-password');
    expect(fs.readFileSync(file, 'utf8')).toBe(`${password}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const firstRun = async () => (await fetch(`http://127.0.0.1:${port}/api/auth/first-run`)).json();
    expect(await firstRun()).toEqual({ initial_password_file: file });

    const login = (pw: string) =>
      fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: pw }),
      });
    expect((await login('wrong-password')).status).toBe(401);
    expect(fs.existsSync(file)).toBe(true);
    expect((await login(password!)).status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(await firstRun()).toEqual({ initial_password_file: null });
    for (const f of ['secret_key', 'encryption_key', 'fleet.db']) expect(fs.existsSync(path.join(dataDir, f))).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'encryption_key')).mode & 0o777).toBe(0o600);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);

    // Second start: the same admin, nothing printed again, no file written again.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    await waitHealthy(port, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${again.err()}`);
    });
    expect(again.err()).not.toContain('Generated password');
    expect(fs.existsSync(file)).toBe(false);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);

  it('refuses WORKERS>1 on a memory cache', async () => {
    const p = start({ DATA_DIR: tempDir(), PORT: String(await freePort()), WORKERS: '2' });
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(/WORKERS > 1 needs a shared cache: set CACHE_URL=redis/);
  });

  it('a failed migration stops start-up with a clear message', async () => {
    const dataDir = tempDir();
    const db = new Database(path.join(dataDir, 'fleet.db'));
    db.exec('CREATE TABLE admins (id integer)');
    db.close();
    const p = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(/Database migration "20261122T0001-platform" failed/);
  });

  it.runIf(process.env.TEST_CACHE_URL)('WORKERS=2 on Redis serves from two processes on one port', async () => {
    const port = await freePort();
    const p = start({
      DATA_DIR: tempDir(),
      PORT: String(port),
      WORKERS: '2',
      CACHE_URL: process.env.TEST_CACHE_URL!,
      CACHE_PREFIX: `test:workers:${process.pid}:`,
    });
    await waitHealthy(port, 30_000);
    // tsx runs the primary; the primary forks two workers that serve the one port.
    const primary = await until(async () => childPids(p.child.pid!)[0], 10_000);
    await until(async () => childPids(primary).length === 2, 30_000);
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
      expect(res.headers.has('x-worker-pid')).toBe(false);
    }
    p.child.kill('SIGTERM');
    expect(await p.exited).not.toBeNull();
  }, 60_000);

  it.runIf(process.env.TEST_CACHE_URL)('WORKERS=2 whose workers keep crashing: restarted after growing waits, then the primary exits non-zero', async () => {
    // Workers die at start when their port is taken; the primary never binds it itself.
    const port = await freePort();
    const blocker = net.createServer().listen(port, '0.0.0.0');
    await new Promise((r) => blocker.once('listening', r));
    try {
      const started = Date.now();
      const p = start({
        DATA_DIR: tempDir(),
        PORT: String(port),
        WORKERS: '2',
        CACHE_URL: process.env.TEST_CACHE_URL!,
        CACHE_PREFIX: `test:crashing:${process.pid}:`,
        LOG_LEVEL: 'info',
      });
      expect(await p.exited).toBe(1);
      const log = p.out() + p.err();
      expect(log).toMatch(/workers keep crashing; stopping the service/);
      const waits = [...log.matchAll(/"restartInMs":(\d+)/g)].map((m) => Number(m[1]));
      expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
      // Not a tight loop: the waits alone take 1 + 2 + 4 s before the last restart.
      expect(Date.now() - started).toBeGreaterThan(7_000);
    } finally {
      blocker.close();
    }
  }, 300_000);
});
