/**
 * The SSH daemon of one of 8 servers is killed in the middle of a push (the listener and its
 * session processes; the commands they ran are left to notice on their own). That server alone
 * fails; the 7 others get every file, checked with sha256sum on each. Nothing is left running: no
 * rsync or ssh here, and neither the remote rsync nor anything it started on the server. Once sshd
 * is back (same port, same host key), the retry job completes the push.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commOf, startSshd, type SshdInstance } from '../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { pidsWithArg } from '../helpers/service-process.js';
import { addServer, bigSource, caller, digestTree, remoteDir, rmrf, until, writingBig } from '../modules/push/push-helpers.js';

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
    const src = bigSource(96);
    cleanup.push(src);
    const vdir = remoteDir(victim, 'killed');
    const dirs = [vdir];
    const ids = [await addServer(call, victim, 'killed', { target_path: vdir })];
    for (let i = 0; i < 7; i++) {
      const dir = remoteDir(shared, `kill-ok-${i}`);
      dirs.push(dir);
      ids.push(await addServer(call, shared, `kill-ok-${i}`, { target_path: dir }));
    }
    cleanup.push(...dirs);
    const batchId = `killed_${randomUUID().slice(0, 8)}`;
    const res = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, async: true, batch_id: batchId, concurrency: 8 });
    expect(res.statusCode).toBe(202);

    expect(await writingBig([vdir], 30_000)).toBe(true);
    // What the daemon ran for us; once it is killed they are orphans, found by pid only.
    const remote = victim.userProcesses();
    expect(remote.map((p) => p.comm)).toContain('rsync');
    victim.killDaemon();

    await t.app.services.push.waitFor(batchId);
    const b = (await call('GET', `/api/sync/batches/${batchId}`)).json();
    expect(b).toMatchObject({ status: 'partial', succeeded: 7, failed: 1 });
    const [vr, ...others] = b.results;
    expect(vr).toMatchObject({ server_id: ids[0], status: 'failed', retry_job_id: expect.any(Number) });
    expect(vr.error).toMatch(/rsync/);
    expect(others.map((r: { status: string }) => r.status)).toEqual(Array(7).fill('success'));
    for (const dir of dirs.slice(1)) expect(digestTree(dir)).toEqual(digestTree(src));

    // Checked remotely (sha256sum on each server): the 7 hold the files; the dead one fails alone.
    const verify = (await call('POST', '/api/sync/verify', { source_path: src, server_ids: ids })).json();
    expect(verify.results[String(ids[0])]).toMatchObject({ error: expect.any(String) });
    for (const id of ids.slice(1)) expect(verify.results[String(id)]).toMatchObject({ matched: 2, missing: 0, mismatched: 0 });

    // No rsync/ssh of this push left here; the orphaned remote rsync (and its shell) ended too.
    await until(async () => pidsWithArg(src).length === 0 && pidsWithArg(vdir).length === 0, 15_000);
    await until(async () => remote.every((p) => commOf(p.pid) !== p.comm), 20_000, 100);

    // sshd is back on the same port with the same host key: the retry job completes the push.
    await victim.restart();
    const job = (await call('GET', '/api/retries')).json().find((j: { id: number }) => j.id === vr.retry_job_id);
    expect(job).toMatchObject({ server_id: ids[0], status: 'pending', target_path: vdir });
    expect((await call('POST', `/api/retries/${job.id}/retry`)).statusCode).toBe(200);
    expect(await t.app.services.retries.runDueRetries()).toMatchObject({ ran: 1, succeeded: 1 });
    // The killed remote rsync could not remove its partial temp file; everything else matches.
    const pushed = Object.fromEntries(Object.entries(digestTree(vdir)).filter(([k]) => !k.startsWith('.big.bin.')));
    expect(pushed).toEqual(digestTree(src));
    expect(victim.userProcesses()).toEqual([]);
  }, 85_000);
});
