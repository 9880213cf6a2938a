/** The real entry point as a process: first start, graceful stop, refusals with clear messages. */
import fs from 'node:fs';
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
  it('first start: creates the admin with a printed password, keeps keys, stops gracefully', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const p = start({ DATA_DIR: dataDir, PORT: String(port) });
    expect(await waitHealthy(port)).toMatchObject({ status: 'ok', db: 'ok', cache: 'ok' });
    const password = /Generated password:\s+(\S+)/.exec(p.out())?.[1];
    expect(password).toBeTruthy();
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    for (const f of ['secret_key', 'encryption_key', 'fleet.db']) expect(fs.existsSync(path.join(dataDir, f))).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'encryption_key')).mode & 0o777).toBe(0o600);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);

    // Second start: the same admin, nothing printed again.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    await waitHealthy(port);
    expect(again.out()).not.toContain('Generated password');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

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
});
