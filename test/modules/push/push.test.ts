import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, startSshd, type SshdInstance } from '../../fixtures/sshd.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import {
  addServer, appFor, caller, digestTree, recordEvents, remoteDir, rmrf, stagingDir, type EventLog,
} from './push-helpers.js';

const shared = inject('sshd');
let extra: SshdInstance[] = [];

beforeAll(async () => {
  extra = await Promise.all([startSshd(), startSshd()]);
});
afterAll(async () => {
  await Promise.all(extra.map((s) => s.stop()));
});

const FILES = {
  'a.txt': 'alpha\n',
  'nested/deep/b.bin': randomBytes(200_000),
  'with space ü $(x).txt': 'odd name\n',
  'empty.txt': '',
};
const TOTAL_BYTES = Object.values(FILES).reduce((n, v) => n + Buffer.byteLength(v), 0);

describe.each(dbKinds())('push engine on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let ev: EventLog;
  let src: string;
  let ids: number[];
  let dirs: string[];
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    ev = recordEvents(t);
    src = stagingDir(FILES);
    const targets = [shared, extra[0], extra[1]];
    dirs = targets.map((s, i) => remoteDir(s, `srv${i}`));
    ids = [];
    for (const [i, s] of targets.entries()) ids.push(await addServer(call, s, `push${i}`, { target_path: dirs[i] }));
    cleanup.push(src, ...dirs);
  });
  afterAll(async () => {
    ev?.stop();
    await t?.close();
    rmrf(...cleanup);
  });

  const push = (body: Record<string, unknown>) => call('POST', '/api/sync/files', { source_path: src, ...body });
  const batchCount = async () => (await call('GET', '/api/sync/batches?limit=200')).json().length as number;

  it('pushes the contents of a staged directory to three servers, byte for byte', async () => {
    const res = await push({ server_ids: ids });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ status: 'completed', operator: 'admin', sync_mode: 'incremental', total: 3, succeeded: 3, failed: 0, skipped: 0 });
    expect(b.source_path).toBe(fs.realpathSync(src));
    expect(Date.parse(b.finished_at)).toBeGreaterThanOrEqual(Date.parse(b.started_at));
    expect(b.results.map((r: { server_id: number }) => r.server_id)).toEqual(ids);
    for (const r of b.results) {
      expect(r).toMatchObject({ status: 'success', files_transferred: 4, bytes_transferred: TOTAL_BYTES, error: null, retry_job_id: null });
      expect(r.duration_ms).toBeGreaterThan(0);
    }
    for (const d of dirs) expect(digestTree(d)).toEqual(digestTree(src));

    // Live events are delivered asynchronously, in order: completion comes last.
    expect(await ev.next((e) => e.type === 'push_complete' && e.batch_id === b.batch_id)).toMatchObject({ status: 'completed', succeeded: 3 });
    const mine = ev.events.filter((e) => e.batch_id === b.batch_id);
    for (const id of ids) {
      expect(mine.some((e) => e.type === 'push_progress' && e.server_id === id && e.status === 'running')).toBe(true);
      expect(mine.some((e) => e.type === 'push_progress' && e.server_id === id && e.status === 'success')).toBe(true);
    }
    const audit = (await call('GET', '/api/audit?action=sync_files')).json().items;
    expect(audit.some((a: { target_id: string }) => a.target_id === b.batch_id)).toBe(true);
  });

  it('a repeat transfers nothing; full mode deletes extras; checksum catches a same-size change', async () => {
    const again = (await push({ server_ids: ids })).json();
    expect(again.results.map((r: { files_transferred: number }) => r.files_transferred)).toEqual([0, 0, 0]);

    fs.writeFileSync(path.join(dirs[0], 'stale.txt'), 'old');
    expect((await push({ server_ids: [ids[0]] })).json().status).toBe('completed');
    expect(fs.existsSync(path.join(dirs[0], 'stale.txt'))).toBe(true);
    const full = (await push({ server_ids: [ids[0]], sync_mode: 'full' })).json();
    expect(full).toMatchObject({ status: 'completed', sync_mode: 'full' });
    expect(fs.existsSync(path.join(dirs[0], 'stale.txt'))).toBe(false);

    // Same size and mtime: only a checksum comparison notices.
    const remote = path.join(dirs[1], 'a.txt');
    const st = fs.statSync(path.join(src, 'a.txt'));
    fs.writeFileSync(remote, 'alphX\n');
    fs.utimesSync(remote, st.atime, st.mtime);
    expect((await push({ server_ids: [ids[1]] })).json().results[0].files_transferred).toBe(0);
    expect(fs.readFileSync(remote, 'utf8')).toBe('alphX\n');
    const sum = (await push({ server_ids: [ids[1]], sync_mode: 'checksum' })).json();
    expect(sum.results[0]).toMatchObject({ status: 'success', files_transferred: 1, bytes_transferred: 6 });
    expect(digestTree(dirs[1])).toEqual(digestTree(src));
  });

  it('target_path in the request wins over the server default, and missing parents are created', async () => {
    const dest = path.join(remoteDir(shared, 'override'), 'x', 'y z');
    cleanup.push(path.dirname(path.dirname(dest)));
    const b = (await push({ server_ids: [ids[0]], target_path: dest })).json();
    expect(b.status).toBe('completed');
    expect(digestTree(dest)).toEqual(digestTree(src));
  });

  it('an unknown server fails alone with "Server not found" and no retry job', async () => {
    const res = await push({ server_ids: [ids[2], 999_999, ids[2]] });
    const b = res.json();
    expect(b).toMatchObject({ status: 'partial', total: 2, succeeded: 1, failed: 1 });
    expect(b.results[1]).toMatchObject({ server_id: 999_999, status: 'failed', error: 'Server not found', retry_job_id: null });
    const all = (await push({ server_ids: [999_998] })).json();
    expect(all).toMatchObject({ status: 'failed', total: 1, failed: 1 });
  });

  it('a later push of the same source that succeeds on the server clears its retry jobs', async () => {
    // Unreachable at first (a port nobody listens on): the push fails and leaves a retry job.
    const id = await addServer(call, shared, 'heal', { port: await freePort() });
    const dest = remoteDir(shared, 'heal');
    cleanup.push(dest);
    const first = (await push({ server_ids: [id], target_path: '/proc/fleet-old-target' })).json();
    expect(first).toMatchObject({ status: 'failed', failed: 1 });
    const jobId = first.results[0].retry_job_id as number;
    expect(jobId).toBeGreaterThan(0);
    // The worker used up its attempts: the job is "out of attempts" on the dashboard.
    await t.app.services.db.updateTable('retry_jobs').set({ status: 'failed' }).where('id', '=', jobId).execute();
    const other = await t.app.services.retries.createForFailure({
      serverId: id, serverName: 'heal', operator: 'admin', source: '/tmp/svc_upload_other', targetPath: dest, mode: 'incremental', batchId: null, error: 'x',
    });
    await t.app.services.db.updateTable('retry_jobs').set({ status: 'failed' }).where('id', '=', other).execute();
    const outOfAttempts = async () => ((await call('GET', '/api/dashboard')).json().retries.recent_failed as Array<{ id: number }>).map((j) => j.id);
    expect(await outOfAttempts()).toEqual(expect.arrayContaining([jobId, other]));

    // Fixed (reachable, and pushed to a target that works): the same files reach the server.
    expect((await call('PUT', `/api/servers/${id}`, { port: shared.port })).statusCode).toBe(200);
    const again = (await push({ server_ids: [id], target_path: dest })).json();
    expect(again).toMatchObject({ status: 'completed', succeeded: 1 });
    const jobs = (await call('GET', '/api/retries')).json() as Array<{ id: number; status: string }>;
    expect(jobs.find((j) => j.id === jobId)?.status).toBe('succeeded');
    // Other files for the same server were not pushed: their job still waits for an operator.
    expect(jobs.find((j) => j.id === other)?.status).toBe('failed');
    const after = await outOfAttempts();
    expect(after).not.toContain(jobId);
    expect(after).toContain(other);
  });

  it('refuses bad input with a 4xx and starts nothing', async () => {
    const file = path.join(src, 'a.txt');
    const before = await batchCount();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ server_ids: ids, sync_mode: 'mirror' }, 422],
      [{ server_ids: ids, source_path: '/etc' }, 403],
      [{ server_ids: ids, source_path: `${src}/../../etc` }, 403],
      [{ server_ids: ids, source_path: file }, 400],
      [{ server_ids: ids, source_path: `${src}-missing` }, 400],
      [{ server_ids: ids, source_path: '/nonexistent-fleet-dir' }, 400],
      [{ server_ids: [] }, 422],
      [{ server_ids: ids, batch_size: 501 }, 422],
      [{ server_ids: ids, concurrency: 0 }, 422],
      [{ server_ids: ids, concurrency: 51 }, 422],
      [{ server_ids: ids, batch_id: 'bad id!' }, 422],
      [{ server_ids: ids, batch_id: 'x'.repeat(65) }, 422],
      [{ server_ids: [3_000_000_000] }, 422],
    ];
    for (const [body, status] of cases) {
      const res = await push(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().detail).toEqual(expect.any(String));
    }
    expect(await batchCount()).toBe(before);

    const id = `dup-${randomUUID().slice(0, 8)}`;
    expect((await push({ server_ids: [ids[0]], batch_id: id })).statusCode).toBe(200);
    const dup = await push({ server_ids: [ids[0]], batch_id: id });
    expect(dup.statusCode).toBe(409);
    expect(await batchCount()).toBe(before + 1);
  });

  it('async: 202 at once, then the batch is kept in the history', async () => {
    const id = `async_${randomUUID().slice(0, 8)}`;
    const res = await push({ server_ids: ids, async: true, batch_id: id, concurrency: 2, batch_size: 2 });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ batch_id: id, status: 'running' });
    await ev.next((e) => e.type === 'push_complete' && e.batch_id === id);
    const got = await call('GET', `/api/sync/batches/${id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ batch_id: id, status: 'completed', total: 3, succeeded: 3 });
    const list = (await call('GET', '/api/sync/batches?limit=2')).json();
    expect(list).toHaveLength(2);
    expect(list[0].batch_id).toBe(id);
    expect(list[0].results).toHaveLength(3);
    expect((await call('GET', '/api/sync/batches/nope')).statusCode).toBe(404);
    expect((await call('GET', '/api/sync/batches?limit=0')).statusCode).toBe(422);
  });

  it('cancel: servers not yet started are skipped, finished ones keep their results', async () => {
    const pre = `pre_${randomUUID().slice(0, 8)}`;
    const c = await call('POST', '/api/sync/cancel', { batch_id: pre });
    expect(c.statusCode).toBe(200);
    expect(c.json()).toEqual({ cancelled: true, batch_id: pre });
    expect((await push({ server_ids: ids, batch_id: pre })).json()).toMatchObject({ status: 'cancelled', skipped: 3, succeeded: 0 });

    const mid = `mid_${randomUUID().slice(0, 8)}`;
    const stop = t.app.services.events.on((e) => {
      if (e.type === 'push_progress' && e.batch_id === mid && e.status === 'running') {
        void call('POST', '/api/sync/cancel', { batch_id: mid });
      }
    });
    fs.writeFileSync(path.join(dirs[0], 'a.txt'), 'changed so that there is work\n');
    try {
      const b = (await push({ server_ids: ids, batch_id: mid, concurrency: 1 })).json();
      expect(b).toMatchObject({ status: 'cancelled', total: 3, succeeded: 1, skipped: 2 });
      expect(b.results.map((r: { status: string }) => r.status)).toEqual(['success', 'skipped', 'skipped']);
    } finally {
      stop();
    }
    const audit = (await call('GET', '/api/audit?action=sync_cancel')).json().items;
    expect(audit.map((a: { target_id: string }) => a.target_id)).toEqual(expect.arrayContaining([pre, mid]));
    expect((await call('POST', '/api/sync/cancel', { batch_id: 'no spaces' })).statusCode).toBe(422);
  });

  it('cancel while the cache is down: kept on the batch row, the running batch still stops', async () => {
    const cache = t.app.services.cache;
    const { set, get } = cache;
    cache.set = () => Promise.reject(new Error('cache down'));
    cache.get = () => Promise.reject(new Error('cache down'));
    const down = `down_${randomUUID().slice(0, 8)}`;
    let cancel: Promise<{ statusCode: number }> | undefined;
    const stop = t.app.services.events.on((e) => {
      if (e.type === 'push_progress' && e.batch_id === down && e.status === 'running') {
        cancel ??= call('POST', '/api/sync/cancel', { batch_id: down });
      }
    });
    fs.mkdirSync(dirs[0], { recursive: true });
    fs.writeFileSync(path.join(dirs[0], 'a.txt'), 'changed again so that there is work\n');
    try {
      const b = (await push({ server_ids: ids, batch_id: down, concurrency: 1 })).json();
      expect((await cancel)?.statusCode).toBe(200);
      expect(b.results.map((r: { status: string }) => r.status)).toEqual(['success', 'skipped', 'skipped']);
      expect(b.status).toBe('cancelled');
    } finally {
      stop();
      cache.set = set;
      cache.get = get;
    }
  });

  it('cancel when neither the cache nor the batch row takes it: 503 with Retry-After, nothing audited', async () => {
    const cache = t.app.services.cache;
    const { set } = cache;
    cache.set = () => Promise.reject(new Error('cache down'));
    try {
      // No batch of that id is running, so its row cannot take the cancel either.
      const res = await call('POST', '/api/sync/cancel', { batch_id: `ahead_${randomUUID().slice(0, 8)}` });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable', detail: expect.stringMatching(/cancel could not be stored/) });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).not.toMatch(/at .*\.ts:/);
    } finally {
      cache.set = set;
    }
  });

  it('preview: a dry run with statistics that changes nothing', async () => {
    const dest = remoteDir(shared, 'preview');
    cleanup.push(dest);
    const res = await call('POST', '/api/sync/preview', { server_id: ids[0], source_path: src, target_path: dest, verbose: true });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      server_id: ids[0], sync_mode: 'incremental', files_total: 4, files_to_transfer: 4, bytes_total: TOTAL_BYTES,
      bytes_to_transfer: TOTAL_BYTES, files_created: 4, file_list_truncated: false,
    });
    expect(p.server_name).toMatch(/^push0-/);
    expect(p).not.toHaveProperty('files_deleted');
    expect(p.file_list).toEqual(
      expect.arrayContaining(['<f+++++++++ a.txt', '<f+++++++++ nested/deep/b.bin', '<f+++++++++ with space ü $(x).txt']),
    );
    expect(fs.existsSync(dest)).toBe(false);

    fs.writeFileSync(path.join(dirs[2], 'extra.txt'), 'x');
    const full = (await call('POST', '/api/sync/preview', { server_id: ids[2], source_path: src, sync_mode: 'full' })).json();
    expect(full).toMatchObject({ sync_mode: 'full', files_to_transfer: 0, bytes_to_transfer: 0, files_deleted: 1 });
    expect(full).not.toHaveProperty('file_list');
    expect(fs.existsSync(path.join(dirs[2], 'extra.txt'))).toBe(true);

    const many = stagingDir(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`f${i}.txt`, `${i}`])));
    cleanup.push(many);
    const big = (await call('POST', '/api/sync/preview', { server_id: ids[0], source_path: many, target_path: dest, verbose: true })).json();
    expect(big.file_list).toHaveLength(200);
    expect(big.file_list_truncated).toBe(true);

    const audit = (await call('GET', '/api/audit?action=sync_preview')).json().items;
    expect(audit.some((a: { target_type: string; target_id: string }) => a.target_type === 'server' && a.target_id === String(ids[0]))).toBe(true);
  });

  it('preview errors: unknown server 404, outside staging 403, unreachable server 400', async () => {
    expect((await call('POST', '/api/sync/preview', { server_id: 999_999, source_path: src })).statusCode).toBe(404);
    expect((await call('POST', '/api/sync/preview', { server_id: ids[0], source_path: '/etc' })).statusCode).toBe(403);
    expect((await call('POST', '/api/sync/preview', { server_id: ids[0], source_path: src, sync_mode: 'x' })).statusCode).toBe(422);
    const dead = await addServer(call, { ...shared, port: await freePort() }, 'dead');
    const res = await call('POST', '/api/sync/preview', { server_id: dead, source_path: src });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/refused|closed|connect/i);
  });
});
