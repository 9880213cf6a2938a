import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../fixtures/sshd.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, digestTree, remoteDir, rmrf, stagingDir } from '../push/push-helpers.js';

const sshd = inject('sshd');
const SECOND = 1000;

describe.each(dbKinds())('retry jobs on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let src: string;
  let dest: string;
  let deadId: number;
  let jobId: number;

  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'one.txt': 'one\n', 'sub/two.txt': 'two\n' });
    dest = remoteDir(sshd, 'retry');
    deadId = await addServer(call, { ...sshd, port: await freePort() }, 'dead', { target_path: dest });
  });
  afterAll(async () => {
    await t?.close();
    rmrf(src, dest);
  });

  const jobs = async () => (await call('GET', '/api/retries')).json() as Array<Record<string, unknown>>;
  const job = async (id: number) => (await jobs()).find((j) => j.id === id)!;
  const sweep = (at: number) => t.app.services.retries.runDueRetries(new Date(at));

  it('a failed push leaves a pending job with a 60 s back-off', async () => {
    const b = (await call('POST', '/api/sync/files', { server_ids: [deadId], source_path: src })).json();
    expect(b).toMatchObject({ status: 'failed', failed: 1 });
    expect(b.results[0].error).toMatch(/refused/i);
    jobId = b.results[0].retry_job_id;
    const j = await job(jobId);
    expect(Object.keys(j).sort()).toEqual(
      ['id', 'server_id', 'server_name', 'operator', 'source_path', 'target_path', 'status', 'retry_count', 'max_retries', 'next_retry_at', 'last_error', 'created_at'].sort(),
    );
    expect(j).toMatchObject({ server_id: deadId, operator: 'admin', target_path: dest, status: 'pending', retry_count: 0, max_retries: 3 });
    expect(j.source_path).toBe(b.source_path);
    expect(j.last_error).toMatch(/refused/i);
    const wait = Date.parse(j.next_retry_at as string) - Date.now();
    expect(wait).toBeGreaterThan(55 * SECOND);
    expect(wait).toBeLessThanOrEqual(60 * SECOND);
  });

  it('the worker retries with exponential back-off until the retries are used up', async () => {
    const now = Date.now();
    expect(await sweep(now)).toMatchObject({ ran: 0 });

    expect(await sweep(now + 61 * SECOND)).toMatchObject({ ran: 1, failed: 1 });
    let j = await job(jobId);
    expect(j).toMatchObject({ status: 'pending', retry_count: 1 });
    const wait = Date.parse(j.next_retry_at as string) - Date.now();
    expect(wait).toBeGreaterThan(115 * SECOND);
    expect(wait).toBeLessThanOrEqual(120 * SECOND);

    expect(await sweep(now + 200 * SECOND)).toMatchObject({ ran: 1, failed: 1 });
    j = await job(jobId);
    expect(j).toMatchObject({ status: 'pending', retry_count: 2 });
    expect(Date.parse(j.next_retry_at as string) - Date.now()).toBeGreaterThan(235 * SECOND);

    expect(await sweep(now + 500 * SECOND)).toMatchObject({ ran: 1, failed: 1 });
    expect(await job(jobId)).toMatchObject({ status: 'failed', retry_count: 3, next_retry_at: null });
    expect(await sweep(now + 100_000 * SECOND)).toMatchObject({ ran: 0 });
  });

  it('a manual retry resets the job; once the server is fixed the next sweep succeeds', async () => {
    const res = await call('POST', `/api/retries/${jobId}/retry`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: jobId, status: 'pending', retry_count: 0, next_retry_at: null, last_error: null });

    // Another worker holding the lock: this sweep does nothing.
    const cache = t.app.services.cache;
    const token = await cache.acquireLock('retries:worker', 10_000);
    expect(await t.app.services.retries.runDueRetries()).toMatchObject({ skipped: true, ran: 0 });
    await cache.releaseLock('retries:worker', token!);

    expect((await call('PUT', `/api/servers/${deadId}`, { port: sshd.port })).statusCode).toBe(200);
    expect(await t.app.services.retries.runDueRetries()).toMatchObject({ ran: 1, succeeded: 1 });
    expect(await job(jobId)).toMatchObject({ status: 'succeeded', last_error: null });
    expect(digestTree(dest)).toEqual(digestTree(src));

    const audit = (await call('GET', '/api/audit?action=retry_job')).json().items;
    expect(audit.some((a: { target_id: string }) => a.target_id === String(jobId))).toBe(true);
  });

  it('list limit, delete and 404s', async () => {
    const dead2 = await addServer(call, { ...sshd, port: await freePort() }, 'dead2');
    expect((await call('POST', '/api/sync/files', { server_ids: [dead2], source_path: src })).json().status).toBe('failed');
    expect((await jobs()).length).toBeGreaterThanOrEqual(2);
    const limited = (await call('GET', '/api/retries?limit=1')).json();
    expect(limited).toHaveLength(1);
    expect(limited[0].id).toBeGreaterThan(jobId); // newest first
    expect((await call('GET', '/api/retries?limit=0')).statusCode).toBe(422);

    expect((await call('DELETE', `/api/retries/${jobId}`)).statusCode).toBe(204);
    const again = await call('DELETE', `/api/retries/${jobId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Retry job not found', code: 'retry_job_not_found' });
    const retry = await call('POST', '/api/retries/999999/retry');
    expect(retry.statusCode).toBe(404);
    expect(retry.json()).toEqual({ detail: 'Retry job not found', code: 'retry_job_not_found' });
    expect((await call('POST', '/api/retries/abc/retry')).statusCode).toBe(422);
    const audit = (await call('GET', '/api/audit?action=delete_retry')).json().items;
    expect(audit.some((a: { target_id: string }) => a.target_id === String(jobId))).toBe(true);
  });

  it('a restart puts jobs that were running back in the queue', async () => {
    const [latest] = (await call('GET', '/api/retries?limit=1')).json();
    await t.app.services.db.updateTable('retry_jobs').set({ status: 'running' }).where('id', '=', latest.id).execute();
    const t2 = await makeTestApp({ shareWith: t });
    try {
      const res = await t2.app.inject({ url: '/api/retries?limit=1', headers: await t2.auth() });
      expect(res.json()[0]).toMatchObject({ id: latest.id, status: 'pending' });
    } finally {
      await t2.close();
    }
  });
});
