/**
 * POST /api/sync/file-ops honours Idempotency-Key (the console sends one per delete, rename and
 * mkdir): a repeat is answered with the first answer and runs nothing on the server again.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/targets.js';
import { remoteTestApp, writeRemote, type RemoteTestApp } from './remote-helpers.js';

describe.each(dbKinds())('file-ops with an Idempotency-Key on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;

  beforeAll(async () => {
    r = await remoteTestApp(db);
    dir = r.remoteDir();
  });
  afterAll(async () => r?.close());

  async function op(body: Record<string, unknown>, key: string) {
    const headers = { ...(await r.t.auth()), 'idempotency-key': key };
    return r.t.app.inject({ method: 'POST', url: '/api/sync/file-ops', headers, payload: { server_id: r.serverId, ...body } });
  }

  it('a repeated rename is replayed, not run again (the second mv would fail: the source is gone)', async () => {
    writeRemote(`${dir}/a.txt`, 'x');
    const body = { operation: 'rename', path: `${dir}/a.txt`, new_path: `${dir}/b.txt` };
    const first = await op(body, 'rename-once-1');
    expect(first.statusCode, first.body).toBe(200);
    const again = await op(body, 'rename-once-1');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(fs.existsSync(`${dir}/b.txt`)).toBe(true);
    expect((await r.audit('file_rename')).filter((a) => String(a.detail).includes(`${dir}/a.txt`))).toHaveLength(1);
  });

  it('the same key for another request is a 409; a malformed key a 400', async () => {
    const reused = await op({ operation: 'mkdir', path: `${dir}/other` }, 'rename-once-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
    expect(fs.existsSync(`${dir}/other`)).toBe(false);
    const bad = await op({ operation: 'mkdir', path: `${dir}/other` }, 'bad key with spaces\u0001');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('idempotency_key_invalid');
  });
});
