/**
 * The network path to one of 8 servers stalls in the middle of a push (a proxy in front of its
 * sshd stops forwarding; the connections stay open, as behind a black-holing middlebox). That
 * server alone fails within the stall timeout (SSH_STALL_TIMEOUT, short here); the 7 others get
 * every file. Nothing is left running: no rsync or ssh here, and no rsync on the server, which
 * never sees its connection close. The failed server's retry job completes once the path is back.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSshd, type SshdInstance } from '../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { pidsWithArg } from '../helpers/service-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { caller, rmrf, until } from '../modules/push/push-helpers.js';
import { expectRetryCompletes, expectVictimFailedAlone, startEightServerPush } from './one-of-eight.js';

const shared = inject('sshd');
const STALL_S = 5;

describe('a network stall to one of 8 servers during a push', () => {
  let victim: SshdInstance;
  let proxy: TcpProxy;
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];

  beforeAll(async () => {
    victim = await startSshd();
    proxy = await startTcpProxy(victim.port);
    t = await makeTestApp({ env: { SSH_STALL_TIMEOUT: String(STALL_S) } });
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.close();
    await victim?.stop();
    rmrf(...cleanup);
  });

  it('fails that server alone within the timeout, leaves no process on either side, and its retry completes', async () => {
    const p = await startEightServerPush(call, { ...victim, port: proxy.port }, shared, 'stalled', cleanup);
    proxy.stall();
    const stalledAt = Date.now();
    expect(victim.userProcesses().map((x) => x.comm)).toContain('rsync');

    await t.app.services.push.waitFor(p.batchId);
    // The local side gives up within the stall timeout (plus a loaded machine's slack).
    expect(Date.now() - stalledAt).toBeLessThan(STALL_S * 1000 + 20_000);
    const jobId = await expectVictimFailedAlone(call, p);

    // No rsync/ssh of this push left here, and (still stalled) no rsync or sha256sum on the server.
    await until(async () => pidsWithArg(p.src).length === 0 && pidsWithArg(p.dirs[0]).length === 0, 15_000);
    await until(async () => victim.userProcesses().length === 0, 4 * STALL_S * 1000 + 15_000, 200);

    // The path is back: the retry job completes the push.
    proxy.resume();
    await expectRetryCompletes(call, t, p, jobId);
    expect(victim.userProcesses()).toEqual([]);
  }, 85_000);
});
