/**
 * With `credential_reauth` on, a stored password can only be pointed at another machine by
 * someone who knows their own password: attaching a password preset, or moving a server that
 * holds a password to another host or port. Such moves are audited with the old and new target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('credential_reauth on %s', (db) => {
  let t: TestApp;
  let apiKey: string;
  let presetId: number;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers?: Record<string, string>) =>
    t.app.inject({ method, url, headers: headers ?? (await t.auth()), ...(payload ? { payload } : {}) });
  const audits = async (action: string) => (await call('GET', `/api/audit?action=${action}`)).json().items as Array<{ detail: string }>;

  beforeAll(async () => {
    t = await makeTestApp({ db });
    apiKey = (await call('POST', '/api/settings/api-key/reveal')).json().value;
    presetId = (await call('POST', '/api/presets', { name: 'root-pw', encrypted_pw: 'hunter2-secret' })).json().id;
  });
  afterAll(async () => t?.close());

  it('off by default: changes go through, and a move of a password server is audited with both targets', async () => {
    const res = await call('POST', '/api/servers', { name: 'pw-off', host: '10.1.1.1', auth_type: 'password', password_preset_id: presetId });
    expect(res.statusCode).toBe(201);
    const moved = await call('PUT', `/api/servers/${res.json().id}`, { host: '10.9.9.9', port: 2222 });
    expect(moved.statusCode).toBe(200);
    const [audit] = await audits('server_target_changed');
    expect(audit.detail).toBe('from=10.1.1.1:22 to=10.9.9.9:2222 credential=password host_key=kept');
  });

  it('on: attaching a password preset needs the caller’s password (400 missing or wrong, 403 for the API key)', async () => {
    expect((await call('PUT', '/api/settings/credential_reauth', { value: 'maybe' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/settings/credential_reauth', { value: 'true' })).statusCode).toBe(200);
    const body = { name: 'pw-on', host: '10.2.2.2', auth_type: 'password', password_preset_id: presetId };
    const missing = await call('POST', '/api/servers', body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/current_password is required for attaching a password preset/);
    const wrong = await call('POST', '/api/servers', { ...body, current_password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect((await audits('reauth_failed')).some((a) => a.detail === 'endpoint=POST /api/servers')).toBe(true);
    expect((await call('POST', '/api/servers', { ...body, current_password: ADMIN_PASSWORD }, { 'x-api-key': apiKey })).statusCode).toBe(403);
    const ok = await call('POST', '/api/servers', { ...body, current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(201);
    expect(JSON.stringify(ok.json())).not.toContain(ADMIN_PASSWORD);
  });

  it('on: moving a server that holds a password needs it too; other changes and key servers do not', async () => {
    const pw = (await call('POST', '/api/servers', { name: 'pw-inline', host: '10.3.3.3', auth_type: 'password', password: 'inline-secret' })).json();
    expect((await call('PUT', `/api/servers/${pw.id}`, { host: 'evil.example.com' })).statusCode).toBe(400);
    expect((await call('PUT', `/api/servers/${pw.id}`, { port: 2200 }, { 'x-api-key': apiKey })).statusCode).toBe(403);
    expect((await call('GET', `/api/servers/${pw.id}`)).json()).toMatchObject({ host: '10.3.3.3', port: 22 });
    expect((await call('PUT', `/api/servers/${pw.id}`, { name: 'pw-renamed', tags: ['x'] })).statusCode).toBe(200);
    expect((await call('PUT', `/api/servers/${pw.id}`, { host: '10.3.3.4', current_password: ADMIN_PASSWORD })).statusCode).toBe(200);
    const key = (await call('POST', '/api/servers', { name: 'key-only', host: '10.4.4.4' })).json();
    expect((await call('PUT', `/api/servers/${key.id}`, { host: '10.4.4.5' })).statusCode).toBe(200);
    expect((await call('PUT', '/api/settings/credential_reauth', { value: 'false' })).statusCode).toBe(200);
  });
});
