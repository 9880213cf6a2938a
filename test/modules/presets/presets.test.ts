import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { captureLogs } from './log-capture.js';

describe.each(dbKinds())('password presets on %s', (db) => {
  let t: TestApp;
  const logs = captureLogs();
  const secret = `pw-${crypto.randomBytes(9).toString('hex')}`;

  beforeAll(async () => {
    t = await makeTestApp({ db, logger: { level: 'debug', stream: logs.stream } });
  });
  afterAll(async () => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });

  const auditActions = async (action: string) =>
    (await call('GET', `/api/audit?action=${action}`)).json().items as Array<Record<string, unknown>>;

  it('creates, lists and updates without ever returning the password', async () => {
    const created = await call('POST', '/api/presets', { name: 'ops', encrypted_pw: secret });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(Number), name: 'ops' });
    expect(created.body).not.toContain(secret);
    const id = created.json().id as number;

    const list = await call('GET', '/api/presets');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(list.json()).toContainEqual({ id, name: 'ops', username: 'root', created_at: expect.any(String) });

    const updated = await call('PUT', `/api/presets/${id}`, { name: 'ops2', username: 'deploy', encrypted_pw: `${secret}-2` });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id, name: 'ops2' });
    expect(updated.body).not.toContain(secret);
    const row = (await call('GET', '/api/presets')).json().find((p: { id: number }) => p.id === id);
    expect(row).toMatchObject({ name: 'ops2', username: 'deploy' });

    const stored = await t.app.services.db.selectFrom('password_presets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.password_enc).not.toContain(secret);
    expect(stored.password_enc.startsWith('v1:')).toBe(true);

    expect((await auditActions('create_preset')).some((a) => a.target_id === String(id))).toBe(true);
    expect((await auditActions('update_preset')).some((a) => a.target_id === String(id))).toBe(true);
  });

  it('turns a blank or missing username into root', async () => {
    const blank = (await call('POST', '/api/presets', { name: 'blank', username: '   ', encrypted_pw: 'x' })).json();
    const none = (await call('POST', '/api/presets', { name: 'none', encrypted_pw: 'x' })).json();
    const list = (await call('GET', '/api/presets')).json() as Array<{ id: number; username: string }>;
    expect(list.find((p) => p.id === blank.id)?.username).toBe('root');
    expect(list.find((p) => p.id === none.id)?.username).toBe('root');
    const upd = await call('PUT', `/api/presets/${none.id}`, { username: '' });
    expect(upd.statusCode).toBe(200);
    expect((await call('GET', '/api/presets')).json().find((p: { id: number }) => p.id === none.id).username).toBe('root');
  });

  it('reveals only with the current admin password', async () => {
    const { id } = (await call('POST', '/api/presets', { name: 'reveal-me', encrypted_pw: secret })).json();
    const wrong = await call('POST', `/api/presets/${id}/reveal`, { current_password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Current password is incorrect', code: 'wrong_password' });
    expect(wrong.body).not.toContain(secret);
    // An empty password is a wrong one (400), not a schema failure.
    expect((await call('POST', `/api/presets/${id}/reveal`, { current_password: '' })).statusCode).toBe(400);

    const ok = await call('POST', `/api/presets/${id}/reveal`, { current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id, name: 'reveal-me', password: secret });
    expect((await auditActions('reveal_preset')).some((a) => a.target_id === String(id))).toBe(true);

    const missing = await call('POST', '/api/presets/999999/reveal', { current_password: ADMIN_PASSWORD });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Preset not found', code: 'preset_not_found' });
    expect((await call('POST', `/api/presets/${id}/reveal`, {})).statusCode).toBe(422);
  });

  it('answers 404 for unknown presets and deletes with 204', async () => {
    expect((await call('PUT', '/api/presets/999999', { name: 'x' })).json()).toEqual({ detail: 'Preset not found', code: 'preset_not_found' });
    expect((await call('DELETE', '/api/presets/999999')).statusCode).toBe(404);
    const { id } = (await call('POST', '/api/presets', { name: 'gone', encrypted_pw: 'x' })).json();
    const del = await call('DELETE', `/api/presets/${id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await call('DELETE', `/api/presets/${id}`)).statusCode).toBe(404);
    expect((await auditActions('delete_preset')).some((a) => a.target_id === String(id))).toBe(true);
  });

  it('rejects schema failures with 422 and changes nothing', async () => {
    const before = (await call('GET', '/api/presets')).json().length;
    for (const body of [
      { name: 'x'.repeat(101), encrypted_pw: 'x' },
      { name: '', encrypted_pw: 'x' },
      { name: 'no-password' },
      { name: 'nul\u0000', encrypted_pw: 'x' },
      { name: 'obj', encrypted_pw: { a: 1 } },
    ]) {
      const res = await call('POST', '/api/presets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ detail: expect.stringMatching(/^Validation failed: body\./), code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^body\./) })]) });
    }
    expect((await call('POST', '/api/presets', { name: '   ', encrypted_pw: 'x' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/presets/abc', { name: 'x' })).statusCode).toBe(422);
    expect((await call('GET', '/api/presets')).json().length).toBe(before);
  });

  it('needs authentication', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/presets' })).statusCode).toBe(401);
  });

  it('answers 500 with a clear detail when the stored secret cannot be decrypted', async () => {
    const { id } = (await call('POST', '/api/presets', { name: 'old-key', encrypted_pw: secret })).json();
    const other = await makeTestApp({ shareWith: t, config: { encryptionKey: crypto.randomBytes(32) } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `/api/presets/${id}/reveal`,
        headers: await other.auth(),
        payload: { current_password: ADMIN_PASSWORD },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().detail).toMatch(/decrypt/i);
      expect(res.body).not.toContain(secret);
    } finally {
      await other.close();
    }
  });

  it('never logs the password', async () => {
    expect(logs.text().length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(secret);
    expect(logs.text()).not.toContain(ADMIN_PASSWORD);
  });
});
