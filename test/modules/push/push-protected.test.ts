/**
 * A full push (rsync --delete) never mirrors into a directory whose loss wrecks a host — by
 * request, by a server's own target, in a preview, a schedule or a retry — and a full preview
 * counts every entry it would delete, directories included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir } from './push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('full pushes into protected directories on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];
  let src: string;
  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'a.txt': 'a\n' });
    cleanup.push(src);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  it.each([
    '/', '/etc', '/usr/', '/var', '/boot', '/root', '/home', '/etc/../usr', '..', '../../etc',
    // The pseudo-filesystems and everything below them: /proc/self/root/etc IS /etc.
    '/proc', '/proc/self/root/etc', '//proc/./1/root/', '/sys/kernel', '/dev/shm/x', '../../proc/self/root',
  ])('refuses a full push and preview into %s', async (target) => {
    const id = await addServer(call, shared, 'prot');
    const before = (await call('GET', '/api/sync/batch-summaries')).json().total;
    const push = await call('POST', '/api/sync/files', { server_ids: [id], source_path: src, target_path: target, sync_mode: 'full' });
    expect(push.statusCode).toBe(400);
    expect(push.json()).toMatchObject({ code: 'protected_path', detail: expect.stringMatching(/full push deletes what the source lacks; it is refused into/) });
    expect((await call('GET', '/api/sync/batch-summaries')).json().total).toBe(before);
    const preview = await call('POST', '/api/sync/preview', { server_id: id, source_path: src, target_path: target, sync_mode: 'full' });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().code).toBe('protected_path');
  });

  it('names the pseudo-filesystem, and a non-full push into /proc/... is not the guard\'s business', async () => {
    const id = await addServer(call, shared, 'procfs');
    const res = await call('POST', '/api/sync/preview', { server_id: id, source_path: src, target_path: '/proc/self/root/etc', sync_mode: 'full' });
    expect(res.json().detail).toBe('A full push deletes what the source lacks; it is refused into /proc or anywhere below it.');
    // An incremental dry run deletes nothing: it reaches rsync (which then reports what it would copy).
    const inc = await call('POST', '/api/sync/preview', { server_id: id, source_path: src, target_path: '/proc/self/root/tmp', sync_mode: 'incremental' });
    expect(inc.json().code).not.toBe('protected_path');
  });

  it('refuses a full push whose server target is protected, naming the server; other modes and subdirectories stay allowed', async () => {
    const id = await addServer(call, shared, 'ownprot', { target_path: '/usr' });
    const res = await call('POST', '/api/sync/files', { server_ids: [id], source_path: src, sync_mode: 'full' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/into \/usr \(the target of server "ownprot-/);
    const dest = remoteDir(shared, 'below');
    cleanup.push(dest);
    // A subdirectory of a protected one is everyday work; the check is on the directory itself.
    const ok = await call('POST', '/api/sync/files', { server_ids: [id], source_path: src, target_path: dest, sync_mode: 'full' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'completed' });
  });

  it('refuses a full push schedule into a protected directory, on create and on update', async () => {
    const id = await addServer(call, shared, 'sched');
    const base = { name: 'mirror', source_path: src, server_ids: [id], run_mode: 'cron', cron_expr: '0 3 * * *' };
    expect((await call('POST', '/api/schedules', { ...base, sync_mode: 'full', target_path: '/var' })).statusCode).toBe(400);
    const made = await call('POST', '/api/schedules', { ...base, sync_mode: 'incremental', target_path: '/var' });
    expect(made.statusCode).toBe(201);
    expect((await call('PUT', `/api/schedules/${made.json().id}`, { sync_mode: 'full' })).statusCode).toBe(400);
    const viaProc = await call('POST', '/api/schedules', { ...base, sync_mode: 'full', target_path: '/proc/self/root/etc' });
    expect(viaProc.statusCode).toBe(400);
    expect(viaProc.json().code).toBe('protected_path');
    expect((await call('PUT', `/api/schedules/${made.json().id}`, { target_path: '/proc/1/root/var', sync_mode: 'full' })).statusCode).toBe(400);
    const kept = (await call('GET', '/api/schedules')).json().find((x: { id: number }) => x.id === made.json().id);
    expect(kept).toMatchObject({ sync_mode: 'incremental', target_path: '/var' });
  });

  it.each([
    ['/etc', '/etc'],
    ['/proc/self/root/etc', '/proc'],
  ])('a full-mode retry job into %s fails for good without running', async (targetPath, named) => {
    const id = await addServer(call, shared, 'retryprot');
    const jobId = await t.app.services.retries.createForFailure({
      serverId: id, serverName: 'retryprot', operator: 'admin', source: src, targetPath, mode: 'full', batchId: null, error: 'x',
    });
    await t.app.services.db.updateTable('retry_jobs').set({ next_retry_at: null }).where('id', '=', jobId).execute();
    await t.app.services.retries.runDueRetries();
    const job = (await call('GET', '/api/retries')).json().find((j: { id: number }) => j.id === jobId);
    expect(job).toMatchObject({ status: 'failed', last_error: `A full push into ${named} is refused`, retry_count: 1 });
  });

  it('a full preview counts the directories it would delete', async () => {
    const id = await addServer(call, shared, 'delcount');
    const dest = remoteDir(shared, 'delcount');
    cleanup.push(dest);
    fs.mkdirSync(path.join(dest, 'old', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'old', 'x.txt'), 'x');
    fs.mkdirSync(path.join(dest, 'gone'));
    fs.writeFileSync(path.join(dest, 'a.txt'), 'a\n');
    const res = await call('POST', '/api/sync/preview', { server_id: id, source_path: src, target_path: dest, sync_mode: 'full', verbose: true });
    expect(res.statusCode).toBe(200);
    // old/x.txt, old/deeper/, old/ and gone/
    expect(res.json()).toMatchObject({ files_deleted: 4 });
    expect(res.json().file_list.filter((l: string) => l.startsWith('*deleting'))).toHaveLength(4);
    expect(fs.existsSync(path.join(dest, 'gone'))).toBe(true);
  });
});
