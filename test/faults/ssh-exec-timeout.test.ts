/**
 * Rule: an SSH timeout kills the remote process too. A command that outlives its timeout ends on
 * the server (its whole process group), also when the connection stalls under it, and a command
 * sent over a stalled connection reports "timed out" at its deadline instead of hanging until the
 * keepalives give up. The server's sshd is behind a proxy that can stop forwarding.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SshPool } from '../../src/adapters/ssh/index.js';
import type { SshTarget } from '../../src/adapters/ssh/types.js';
import { startSshd, targetFor, type SshdInstance } from '../fixtures/sshd.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../modules/push/push-helpers.js';

describe('exec with a timeout', () => {
  let sshd: SshdInstance;
  let proxy: TcpProxy;
  let target: SshTarget;
  let pool: SshPool;
  const remoteCommands = () => sshd.userProcesses().map((p) => p.comm);

  beforeAll(async () => {
    sshd = await startSshd();
    proxy = await startTcpProxy(sshd.port);
    target = { ...targetFor(sshd, 'key'), port: proxy.port };
  });
  afterEach(async () => {
    proxy.resume();
    await pool?.closeAll();
    // Whatever a test started must be gone before the next one looks.
    await until(async () => remoteCommands().length === 0, 15_000, 100);
  });
  afterAll(async () => {
    await proxy?.close();
    await sshd?.stop();
  });

  it('kills the command and what it started in the background on the server', async () => {
    // Long keepalives: only the timeout can end these runs.
    pool = new SshPool({ keepaliveIntervalMs: 60_000 });
    const r = await pool.exec(target, 'sleep 301 & sleep 300', { timeoutMs: 1500 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null });
    await until(async () => remoteCommands().length === 0, 5_000, 100);
  });

  it('kills it on the server when the connection stalls while it runs', async () => {
    pool = new SshPool({ keepaliveIntervalMs: 60_000 });
    const run = pool.exec(target, ['sleep', '300'], { timeoutMs: 3000 });
    await until(async () => remoteCommands().includes('sleep'), 10_000, 50);
    proxy.stall();
    const r = await run;
    expect(r.timedOut).toBe(true);
    expect(r.durationMs).toBeLessThan(3000 + 5000);
    // Still stalled: the server never heard from us, its `timeout` ended the command.
    await until(async () => remoteCommands().length === 0, 5_000, 100);
  });

  it('reports "timed out" at its deadline when the connection stalled before the command could start', async () => {
    pool = new SshPool({ keepaliveIntervalMs: 60_000 });
    expect((await pool.exec(target, 'true')).exitCode).toBe(0);
    proxy.stall();
    const started = Date.now();
    const r = await pool.exec(target, ['sleep', '300'], { timeoutMs: 1500 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null });
    expect(Date.now() - started).toBeLessThan(1500 + 3000);
    // When the path is back, a command that starts late still ends by its remote timeout (afterEach).
    proxy.resume();
  });
});
