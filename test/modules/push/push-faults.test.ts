import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSshd } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { PushRepository } from '../../../src/modules/push/push.repository.js';
import { addServer, appFor, bigSource, caller, digestTree, remoteDir, rmrf, stagingDir, writingBig } from './push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('push faults on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let src: string;
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'a.txt': 'alpha\n' });
    cleanup.push(src);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  it('a server that drops mid-push fails alone with a retry job; the batch ends partial', async () => {
    const victim = await startSshd();
    try {
      const vdir = remoteDir(victim, 'victim');
      const hdir = remoteDir(shared, 'healthy');
      cleanup.push(vdir, hdir);
      const big = stagingDir({ 'small.txt': 'small\n' });
      cleanup.push(big);
      const fd = fs.openSync(path.join(big, 'big.bin'), 'w');
      fs.ftruncateSync(fd, 128 * 1024 * 1024); // sparse: instant locally, a real transfer remotely
      fs.closeSync(fd);
      const vId = await addServer(call, victim, 'victim', { target_path: vdir });
      const hId = await addServer(call, shared, 'healthy', { target_path: hdir });

      const id = `drop_${randomUUID().slice(0, 8)}`;
      const res = await call('POST', '/api/sync/files', { server_ids: [vId, hId], source_path: big, async: true, batch_id: id, concurrency: 2 });
      expect(res.statusCode).toBe(202);
      // Kill the victim while its rsync is writing the big file (rsync's temp file is there).
      const deadline = Date.now() + 20_000;
      let killed = false;
      while (!killed && Date.now() < deadline) {
        const partial = fs.existsSync(vdir) && fs.readdirSync(vdir).find((n) => n.startsWith('.big.bin.'));
        if (partial && fs.statSync(path.join(vdir, partial)).size > 0) {
          victim.kill();
          killed = true;
        } else await new Promise((r) => setTimeout(r, 5));
      }
      expect(killed).toBe(true);
      await t.app.services.push.waitFor(id);

      const b = (await call('GET', `/api/sync/batches/${id}`)).json();
      expect(b).toMatchObject({ status: 'partial', succeeded: 1, failed: 1 });
      const [vr, hr] = b.results;
      expect(vr).toMatchObject({ server_id: vId, status: 'failed', retry_job_id: expect.any(Number) });
      expect(vr.error).toMatch(/rsync/);
      expect(hr).toMatchObject({ server_id: hId, status: 'success', retry_job_id: null });
      expect(digestTree(hdir)).toEqual(digestTree(big));

      const job = (await call('GET', '/api/retries')).json().find((j: { id: number }) => j.id === vr.retry_job_id);
      expect(job).toMatchObject({ server_id: vId, operator: 'admin', status: 'pending', retry_count: 0, max_retries: 3, target_path: vdir });
      const wait = Date.parse(job.next_retry_at) - Date.now();
      expect(wait).toBeGreaterThan(50_000);
      expect(wait).toBeLessThanOrEqual(60_000);

      // Back up: a manual retry runs at the next sweep and completes the push.
      await victim.restart();
      expect((await call('POST', `/api/retries/${job.id}/retry`)).json()).toMatchObject({ status: 'pending', next_retry_at: null });
      expect(await t.app.services.retries.runDueRetries()).toMatchObject({ ran: 1, succeeded: 1 });
      // The killed remote rsync could not remove its partial temp file; everything else matches.
      const pushed = Object.fromEntries(Object.entries(digestTree(vdir)).filter(([k]) => !k.startsWith('.big.bin.')));
      expect(pushed).toEqual(digestTree(big));
      const after = (await call('GET', '/api/retries')).json().find((j: { id: number }) => j.id === job.id);
      expect(after).toMatchObject({ status: 'succeeded', last_error: null });
    } finally {
      await victim.stop();
    }
  }, 60_000);

  it('a restart closes batches whose lease expired, and leaves batches of a live process alone', async () => {
    const repo = new PushRepository(t.app.services.db);
    const id = `stale_${randomUUID().slice(0, 8)}`;
    const live = `live_${randomUUID().slice(0, 8)}`;
    await repo.createBatch(
      {
        batch_id: live, status: 'running', operator: 'admin', source_path: src, target_path: null, sync_mode: 'incremental',
        started_at: new Date().toISOString(), total: 1, succeeded: 0, failed: 0, skipped: 0,
        // Another process that is alive and renewing: its lease runs for another 20 s.
        lease_owner: 'alive:2:busy', lease_expires_at: new Date(Date.now() + 20_000).toISOString(),
      },
      [{ server_id: 4, server_name: 'd', status: 'running' }],
    );
    await repo.createBatch(
      {
        batch_id: id, status: 'running', operator: 'admin', source_path: src, target_path: null, sync_mode: 'incremental',
        started_at: new Date().toISOString(), total: 3, succeeded: 0, failed: 0, skipped: 0,
        // The lease of a process that is gone: it expired a minute ago.
        lease_owner: 'gone:1:dead', lease_expires_at: new Date(Date.now() - 60_000).toISOString(),
      },
      [
        { server_id: 1, server_name: 'a', status: 'success' },
        { server_id: 2, server_name: 'b', status: 'running' },
        { server_id: 3, server_name: 'c', status: 'pending' },
      ],
    );
    const t2 = await makeTestApp({ shareWith: t });
    try {
      const b = (await t2.app.inject({ url: `/api/sync/batches/${id}`, headers: await t2.auth() })).json();
      expect(b).toMatchObject({ status: 'partial', succeeded: 1, failed: 2 });
      expect(b.finished_at).toEqual(expect.any(String));
      expect(b.results.slice(1).map((r: { status: string; error: string }) => [r.status, r.error])).toEqual([
        ['failed', 'interrupted by a service restart'],
        ['failed', 'interrupted by a service restart'],
      ]);
      // Each interrupted server got a retry job, so the push still completes.
      expect(b.results.slice(1).every((r: { retry_job_id: number | null }) => typeof r.retry_job_id === 'number')).toBe(true);
      const kept = (await t2.app.inject({ url: `/api/sync/batches/${live}`, headers: await t2.auth() })).json();
      expect(kept).toMatchObject({ status: 'running', results: [{ status: 'running', error: null }] });
    } finally {
      await t2.close();
    }
  });

  it('a graceful shutdown stops running rsyncs and writes the batch down, recoverable by retry jobs', async () => {
    const worker = await makeTestApp({ shareWith: t });
    const big = bigSource(128);
    const dest = remoteDir(shared, 'shutdown');
    cleanup.push(big, dest);
    const id = await addServer(caller(() => worker), shared, 'shutdown', { target_path: dest });
    const batchId = `stop_${randomUUID().slice(0, 8)}`;
    const res = await worker.app.inject({
      method: 'POST', url: '/api/sync/files', headers: await worker.auth(),
      payload: { server_ids: [id], source_path: big, async: true, batch_id: batchId },
    });
    expect(res.statusCode).toBe(202);
    await writingBig([dest]);
    await worker.close();
    const b = (await call('GET', `/api/sync/batches/${batchId}`)).json();
    expect(b).toMatchObject({ status: 'failed', failed: 1 });
    expect(b.results[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/shutting down/), retry_job_id: expect.any(Number) });
  });

  it('a worker whose lease moved during a transfer stops its rsync and overwrites nothing the new owner wrote', async () => {
    const worker = await makeTestApp({ shareWith: t });
    const big = bigSource(512);
    const dest = remoteDir(shared, 'lease-moved');
    cleanup.push(big, dest);
    try {
      const id = await addServer(caller(() => worker), shared, 'lease-moved', { target_path: dest });
      const batchId = `moved_${randomUUID().slice(0, 8)}`;
      const res = await worker.app.inject({
        method: 'POST', url: '/api/sync/files', headers: await worker.auth(),
        payload: { server_ids: [id], source_path: big, async: true, batch_id: batchId },
      });
      expect(res.statusCode).toBe(202);
      await writingBig([dest]);
      // The worker's lease runs out (as after a database outage longer than the lease) and the
      // other process recovers the batch: the server fails with a retry job, the batch is closed.
      await t.app.services.db.updateTable('push_batches').set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('batch_id', '=', batchId).execute();
      expect(await t.app.services.push.recoverExpired()).toContain(batchId);
      const recovered = (await call('GET', `/api/sync/batches/${batchId}`)).json();
      expect(recovered).toMatchObject({ status: 'failed', failed: 1, results: [{ status: 'failed', error: 'interrupted by a service restart' }] });

      // The worker's next renewal finds the batch gone from it: it stops the transfer at once...
      await worker.app.services.push.renewLeases();
      await worker.app.services.push.waitFor(batchId);
      expect(fs.existsSync(path.join(dest, 'big.bin'))).toBe(false);
      // ...and writes nothing over the new owner's answer: no success, no second retry job.
      const after = (await call('GET', `/api/sync/batches/${batchId}`)).json();
      expect(after).toEqual(recovered);
      const jobs = (await call('GET', '/api/retries')).json().filter((j: { batch_id?: string; server_id: number }) => j.server_id === id);
      expect(jobs).toHaveLength(1);
    } finally {
      await worker.close();
    }
  }, 60_000);
});
