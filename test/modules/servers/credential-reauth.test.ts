/**
 * With `credential_reauth` on, a stored password can only be pointed at another machine by
 * someone who knows their own password: attaching a password preset, or moving a server that
 * holds a password to another host or port. Such moves are audited with the old and new target.
 * The API key may never do either, whatever that setting says; key-authenticated servers it moves.
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
    const byKey = await call('POST', '/api/servers', { ...body, current_password: ADMIN_PASSWORD }, { 'x-api-key': apiKey });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('api_key_refused');
    const ok = await call('POST', '/api/servers', { ...body, current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(201);
    expect(JSON.stringify(ok.json())).not.toContain(ADMIN_PASSWORD);
  });

  it('on: moving a server that holds a password needs it too; other changes and key servers do not', async () => {
    const pw = (await call('POST', '/api/servers', { name: 'pw-inline', host: '10.3.3.3', auth_type: 'password', password: 'inline-secret' })).json();
    expect((await call('PUT', `/api/servers/${pw.id}`, { host: 'evil.example.com' })).statusCode).toBe(400);
    expect((await call('PUT', `/api/servers/${pw.id}`, { port: 2200 }, { 'x-api-key': apiKey })).json().code).toBe('api_key_refused');
    expect((await call('GET', `/api/servers/${pw.id}`)).json()).toMatchObject({ host: '10.3.3.3', port: 22 });
    expect((await call('PUT', `/api/servers/${pw.id}`, { name: 'pw-renamed', tags: ['x'] })).statusCode).toBe(200);
    expect((await call('PUT', `/api/servers/${pw.id}`, { host: '10.3.3.4', current_password: ADMIN_PASSWORD })).statusCode).toBe(200);
    const key = (await call('POST', '/api/servers', { name: 'key-only', host: '10.4.4.4' })).json();
    expect((await call('PUT', `/api/servers/${key.id}`, { host: '10.4.4.5' })).statusCode).toBe(200);
    expect((await call('PUT', '/api/settings/credential_reauth', { value: 'false' })).statusCode).toBe(200);
  });

  describe('the API key, with credential_reauth off (the default)', () => {
    const byKey = (method: 'POST' | 'PUT', url: string, payload: object) => call(method, url, payload, { 'x-api-key': apiKey });
    const view = async (id: number) => (await call('GET', `/api/servers/${id}`)).json();
    const refused = (res: { statusCode: number; json(): unknown }) => {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: expect.stringContaining('The API key may not do this'), code: 'api_key_refused' });
    };
    let n = 0;
    const server = async (body: object) => {
      const res = await call('POST', '/api/servers', { name: `key-case-${++n}`, host: '10.20.0.1', ...body });
      expect(res.statusCode).toBe(201);
      return res.json().id as number;
    };

    it('cannot attach a password preset, on create or on update', async () => {
      expect((await call('GET', '/api/settings/credential_reauth')).json().value).toBe('false');
      refused(await byKey('POST', '/api/servers', { name: 'key-preset', host: '10.20.1.1', auth_type: 'password', password_preset_id: presetId }));
      expect(((await call('GET', '/api/servers')).json() as Array<{ name: string }>).map((s) => s.name)).not.toContain('key-preset');
      const id = await server({});
      refused(await byKey('PUT', `/api/servers/${id}`, { auth_type: 'password', password_preset_id: presetId }));
      const row = await t.app.services.servers.get(id);
      expect(row.password_preset_id).toBeNull();
      expect(row.auth_type).toBe('key');
    });

    it.each([
      ['a preset password', () => ({ auth_type: 'password', password_preset_id: presetId })],
      ['an inline password', () => ({ auth_type: 'password', password: 'inline-pw-secret' })],
    ])('cannot point a server holding %s at another host, port or user', async (_label, creds) => {
      const id = await server(creds());
      const before = await view(id);
      for (const change of [{ host: 'attacker.example.com' }, { port: 2222 }, { username: 'someone-else' }, { host: '10.20.0.9', auth_type: 'key' }]) {
        refused(await byKey('PUT', `/api/servers/${id}`, change));
      }
      expect(await view(id)).toEqual(before);
      // Changes that send the password nowhere new go through.
      expect((await byKey('PUT', `/api/servers/${id}`, { name: `renamed-${id}`, tags: ['by-key'], host: '10.20.0.1' })).statusCode).toBe(200);
      // An administrator's token still moves it (credential_reauth is off).
      expect((await call('PUT', `/api/servers/${id}`, { host: '10.20.0.2', username: 'deploy' })).statusCode).toBe(200);
      expect(await view(id)).toMatchObject({ host: '10.20.0.2', username: 'deploy' });
    });

    it('moves a key-authenticated server, and a password server whose password it replaces', async () => {
      const keyServer = await server({});
      const moved = await byKey('PUT', `/api/servers/${keyServer}`, { host: '10.20.5.5', port: 2022, username: 'ops' });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ host: '10.20.5.5', port: 2022, username: 'ops' });
      // A new inline password is the caller's own: nothing stored goes to the new address.
      const pw = await server({ auth_type: 'password', password_preset_id: presetId });
      const replaced = await byKey('PUT', `/api/servers/${pw}`, { host: '10.20.6.6', password: 'the-callers-own-password' });
      expect(replaced.statusCode).toBe(200);
      const row = await t.app.services.servers.get(pw);
      expect(row.host).toBe('10.20.6.6');
      expect(row.password_preset_id).toBeNull();
      // A blank password means "unchanged": the stored one would go along, so that move is refused.
      refused(await byKey('PUT', `/api/servers/${pw}`, { host: '10.20.7.7', password: '' }));
    });
  });
});
