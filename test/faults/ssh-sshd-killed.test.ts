/**
 * The SSH daemon of one of 8 servers is killed in the middle of a push (the listener and its
 * session processes; the commands they ran are left to notice on their own). That server alone
 * fails; the 7 others get every file, checked with sha256sum on each. Nothing is left running: no
 * rsync or ssh here, and neither the remote rsync nor anything it started on the server. Once sshd
 * is back (same port, same host key), the retry job completes the push.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commOf, startSshd, type SshdInstance } from '../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { pidsWithArg } from '../helpers/service-process.js';
import { caller, rmrf, until } from '../modules/push/push-helpers.js';
import { expectRetryCompletes, expectVictimFailedAlone, startEightServerPush } from './one-of-eight.js';

const shared = inject('sshd');

describe('sshd killed on one of 8 servers during a push', () => {
  let victim: SshdInstance;
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];

  beforeAll(async () => {
    victim = await startSshd();
    t = await makeTestApp({ env: { SSH_STALL_TIMEOUT: '5' } });
  });
  afterAll(async () => {
    await t?.close();
    await victim?.stop();
    rmrf(...cleanup);
  });

  it('fails that server alone, leaves no process on either side, and its retry completes when sshd is back', async () => {
    const p = await startEightServerPush(call, victim, shared, 'killed', cleanup);
    // What the daemon ran for us; once it is killed they are orphans, found by pid only.
    const remote = victim.userProcesses();
    expect(remote.map((x) => x.comm)).toContain('rsync');
    victim.killDaemon();

    await t.app.services.push.waitFor(p.batchId);
    const jobId = await expectVictimFailedAlone(call, p);

    // No rsync/ssh of this push left here; the orphaned remote rsync (and its shell) ended too.
    await until(async () => pidsWithArg(p.src).length === 0 && pidsWithArg(p.dirs[0]).length === 0, 15_000);
    await until(async () => remote.every((x) => commOf(x.pid) !== x.comm), 20_000, 100);

    // sshd is back on the same port with the same host key: the retry job completes the push.
    await victim.restart();
    await expectRetryCompletes(call, t, p, jobId);
    expect(victim.userProcesses()).toEqual([]);
  }, 85_000);
});
