/** Which servers use a preset: per preset (password and SSH key) and the counts of every preset. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { generateKeyPairSync } from 'node:crypto';

describe.each(dbKinds())('servers using a preset on %s', (db) => {
  let t: TestApp;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: await t.auth(), ...(payload ? { payload } : {}) });
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  it('lists the servers of a password preset by name, and counts every preset', async () => {
    const used = (await call('POST', '/api/presets', { name: 'used', encrypted_pw: 'pw-1' })).json().id as number;
    const unused = (await call('POST', '/api/presets', { name: 'unused', encrypted_pw: 'pw-2' })).json().id as number;
    const key = (await call('POST', '/api/ssh-key-presets', { name: 'k', private_key: pem })).json().id as number;
    for (const name of ['web-b', 'web-a']) {
      const res = await call('POST', '/api/servers', { name, host: '10.0.0.1', auth_type: 'password', password_preset_id: used });
      expect(res.statusCode).toBe(201);
    }
    await call('POST', '/api/servers', { name: 'keyed', host: '10.0.0.2', auth_type: 'key', ssh_key_preset_id: key });
    await call('POST', '/api/servers', { name: 'inline', host: '10.0.0.3', auth_type: 'password', password: 'x' });

    const servers = await call('GET', `/api/presets/${used}/servers`);
    expect(servers.statusCode).toBe(200);
    expect(servers.json().map((s: { name: string }) => s.name)).toEqual(['web-a', 'web-b']);
    expect(servers.json()[0]).toEqual({
      id: expect.any(Number), name: 'web-a', host: '10.0.0.1', port: 22, username: 'root', auth_type: 'password', status: 'unknown',
    });
    expect(servers.body).not.toContain('pw-1');
    expect((await call('GET', `/api/presets/${unused}/servers`)).json()).toEqual([]);

    const keyed = await call('GET', `/api/ssh-key-presets/${key}/servers`);
    expect(keyed.statusCode).toBe(200);
    expect(keyed.json().map((s: { name: string }) => s.name)).toEqual(['keyed']);

    const usage = await call('GET', '/api/servers/preset-usage');
    expect(usage.statusCode).toBe(200);
    expect(usage.json()).toEqual({
      password_presets: [{ preset_id: used, servers: 2 }],
      ssh_key_presets: [{ preset_id: key, servers: 1 }],
    });
  });

  it('answers 404 with the preset code for an unknown preset and 422 for a bad id', async () => {
    const pw = await call('GET', '/api/presets/999999/servers');
    expect(pw.statusCode).toBe(404);
    expect(pw.json().code).toBe('preset_not_found');
    const key = await call('GET', '/api/ssh-key-presets/999999/servers');
    expect(key.statusCode).toBe(404);
    expect(key.json().code).toBe('ssh_key_preset_not_found');
    expect((await call('GET', '/api/presets/abc/servers')).statusCode).toBe(422);
    expect((await call('GET', '/api/ssh-key-presets/0/servers')).statusCode).toBe(422);
  });

  it('a deleted preset leaves no server behind in its list', async () => {
    const id = (await call('POST', '/api/presets', { name: 'gone', encrypted_pw: 'pw' })).json().id as number;
    await call('POST', '/api/servers', { name: 'was-gone', host: '10.0.0.9', auth_type: 'password', password_preset_id: id });
    expect((await call('DELETE', `/api/presets/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/presets/${id}/servers`)).statusCode).toBe(404);
    const usage = (await call('GET', '/api/servers/preset-usage')).json();
    expect(usage.password_presets.some((u: { preset_id: number }) => u.preset_id === id)).toBe(false);
  });
});
