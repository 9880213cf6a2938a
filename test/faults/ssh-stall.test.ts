/**
 * The network path to one of 8 servers stalls in the middle of a push (a proxy in front of its
 * sshd stops forwarding; the connections stay open, as behind a black-holing middlebox). That
 * server alone fails within the stall timeout (SSH_STALL_TIMEOUT, short here); the 7 others get
 * every file. Nothing is left running: no rsync or ssh here, and no rsync on the server, which
 * never sees its connection close. The failed server's retry job completes once the path is back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSshd, type SshdInstance } from '../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { pidsWithArg } from '../helpers/service-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { addServer, bigSource, caller, digestTree, remoteDir, rmrf, until, writingBig } from '../modules/push/push-helpers.js';

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
    const src = bigSource(96);
    cleanup.push(src);
    const vdir = remoteDir(victim, 'stalled');
    const dirs = [vdir];
    const ids = [await addServer(call, { ...victim, port: proxy.port }, 'stalled', { target_path: vdir })];
    for (let i = 0; i < 7; i++) {
      const dir = remoteDir(shared, `stall-ok-${i}`);
      dirs.push(dir);
      ids.push(await addServer(call, shared, `stall-ok-${i}`, { target_path: dir }));
    }
    cleanup.push(...dirs);
    const batchId = `stall_${randomUUID().slice(0, 8)}`;
    const res = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, async: true, batch_id: batchId, concurrency: 8 });
    expect(res.statusCode).toBe(202);

    expect(await writingBig([vdir], 30_000)).toBe(true);
    proxy.stall();
    const stalledAt = Date.now();
    expect(victim.userProcesses().map((p) => p.comm)).toContain('rsync');

    await t.app.services.push.waitFor(batchId);
    // The local side gives up within the stall timeout (plus a loaded machine's slack).
    expect(Date.now() - stalledAt).toBeLessThan(STALL_S * 1000 + 20_000);
    const b = (await call('GET', `/api/sync/batches/${batchId}`)).json();
    expect(b).toMatchObject({ status: 'partial', succeeded: 7, failed: 1 });
    const [vr, ...others] = b.results;
    expect(vr).toMatchObject({ server_id: ids[0], status: 'failed', retry_job_id: expect.any(Number) });
    expect(vr.error).toMatch(/rsync/);
    expect(others.map((r: { status: string }) => r.status)).toEqual(Array(7).fill('success'));
    for (const dir of dirs.slice(1)) expect(digestTree(dir)).toEqual(digestTree(src));

    // Checked remotely (sha256sum on each server): the 7 hold the files; the stalled one fails alone.
    const verify = (await call('POST', '/api/sync/verify', { source_path: src, server_ids: ids })).json();
    expect(verify.results[String(ids[0])]).toMatchObject({ error: expect.any(String) });
    for (const id of ids.slice(1)) expect(verify.results[String(id)]).toMatchObject({ matched: 2, missing: 0, mismatched: 0 });

    // No rsync/ssh of this push left here, and (still stalled) no rsync or sha256sum on the server.
    await until(async () => pidsWithArg(src).length === 0 && pidsWithArg(vdir).length === 0, 15_000);
    await until(async () => victim.userProcesses().length === 0, 4 * STALL_S * 1000 + 15_000, 200);

    // The path is back: the retry job completes the push.
    proxy.resume();
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
