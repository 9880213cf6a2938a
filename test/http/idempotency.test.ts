/**
 * The Idempotency-Key header on every route that starts work (push, schedule, retry, script run):
 * one helper, the same rules on each; keys are per caller; a first request still running makes a
 * repeat wait for its answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/targets.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir } from '../modules/push/push-helpers.js';

const sshd = inject('sshd');

describe.each(dbKinds())('Idempotency-Key on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let serverId: number;
  let src: string;
  const cleanup: string[] = [];

  beforeAll(async () => {
    t = await appFor(db);
    src = stagingDir({ 'a.txt': 'a\n' });
    const dest = remoteDir(sshd, 'idem');
    serverId = await addServer(call, sshd, 'idem', { target_path: dest });
    cleanup.push(src, dest);
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  const send = async (url: string, key: string, payload?: object, headers?: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers: { ...(headers ?? (await t.auth())), 'idempotency-key': key }, ...(payload ? { payload } : {}) });
  const apiKey = () => ({ 'x-api-key': t.app.services.cipher.decrypt(t.app.services.settings.get('api_key') as string) });

  it('creating a schedule twice with one key makes one schedule', async () => {
    const key = randomUUID();
    const body = { name: `once ${key.slice(0, 6)}`, source_path: src, server_ids: [serverId], run_mode: 'cron', cron_expr: '0 9 * * *' };
    const [a, b] = await Promise.all([send('/api/schedules', key, body), send('/api/schedules', key, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).toBe(b.json().id);
    const all = (await call('GET', '/api/schedules')).json() as Array<{ name: string }>;
    expect(all.filter((s) => s.name === body.name)).toHaveLength(1);
  });

  it('a script run twice with one key runs once; the key of another caller is its own', async () => {
    const key = randomUUID();
    const body = { server_ids: [serverId], script_content: 'echo ran' };
    const first = await send('/api/scripts/run', key, body);
    expect(first.statusCode).toBe(200);
    const again = await send('/api/scripts/run', key, body);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // The API key is another caller: the same key string is a new request for it.
    const other = await send('/api/scripts/run', key, body, apiKey());
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json().run_id).not.toBe(first.json().run_id);
  });

  it('a retry reset twice with one key answers the first reset again', async () => {
    const jobId = await t.app.services.retries.createForFailure({
      serverId, serverName: 'idem', operator: 'admin', source: src, targetPath: '/tmp/x', mode: 'incremental', batchId: null, error: 'boom',
    });
    const key = randomUUID();
    const first = await send(`/api/retries/${jobId}/retry`, key);
    expect(first.statusCode).toBe(200);
    const again = await send(`/api/retries/${jobId}/retry`, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // Another job with the same key is another request.
    const reused = await send(`/api/retries/${jobId + 1000}/retry`, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
    await t.app.services.retries.delete({ adminId: null, username: 'admin', ip: null }, jobId);
  });

  it('a repeat while the first synchronous push is still running waits for its answer', async () => {
    const key = randomUUID();
    const body = { server_ids: [serverId], source_path: src };
    const first = send('/api/sync/files', key, body);
    const second = send('/api/sync/files', key, body);
    const [a, b] = await Promise.all([first, second]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toMatchObject({ status: 'completed', succeeded: 1 });
  });
});
