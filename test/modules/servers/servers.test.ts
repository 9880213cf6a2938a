import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { captureLogs } from '../presets/log-capture.js';
import { generateKey, keyMaterial } from '../ssh-key-presets/keygen.js';

const key = generateKey('ed25519');
const rsaPkcs8 = generateKey('rsa-pkcs8');
const INJECTION = "x'; touch /tmp/x #";

describe.each(dbKinds())('servers CRUD on %s', (db) => {
  let t: TestApp;
  const logs = captureLogs();
  const password = `pw-${crypto.randomBytes(9).toString('hex')}`;
  const secrets = [password, keyMaterial(key.privateKey), keyMaterial(rsaPkcs8.privateKey)];

  beforeAll(async () => {
    t = await makeTestApp({ db, logger: { level: 'debug', stream: logs.stream } });
  });
  afterAll(async () => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
    for (const s of secrets) expect(res.body, `${method} ${url} leaked a secret`).not.toContain(s);
    return res;
  };
  const create = (body: Record<string, unknown>) => call('POST', '/api/servers', { host: '127.0.0.1', ...body });
  const audits = async (action: string) =>
    (await call('GET', `/api/audit?action=${action}`)).json().items as Array<Record<string, unknown>>;

  it('creates a server with the defaults of the contract', async () => {
    const res = await create({ name: 'web-1', host: 'web1.example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'web-1',
      host: 'web1.example.com',
      port: 22,
      username: 'root',
      auth_type: 'key',
      ssh_key_preset_id: null,
      password_preset_id: null,
      has_credentials: false,
      target_path: null,
      tags: [],
      host_key_fingerprint: null,
      status: 'unknown',
      last_heartbeat_at: null,
      ssh_status: 'never',
      ssh_last_ok_at: null,
      ssh_last_error_at: null,
      ssh_last_error: null,
      ssh_failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = res.json().id;
    expect((await call('GET', `/api/servers/${id}`)).json()).toEqual(res.json());
    expect((await call('GET', '/api/servers')).json()).toContainEqual(res.json());
    const a = (await audits('create_server')).find((r) => r.target_id === String(id));
    expect(a).toMatchObject({ target_type: 'server', target_name: 'web-1' });
  });

  it('stores inline credentials encrypted and only reports has_credentials', async () => {
    const pw = await create({ name: 'pw-inline', username: 'deploy', password, tags: ['prod', 'db', 'prod', ' '] });
    expect(pw.statusCode).toBe(201);
    expect(pw.json()).toMatchObject({ auth_type: 'password', has_credentials: true, username: 'deploy', tags: ['prod', 'db'] });
    expect(pw.json()).not.toHaveProperty('password');
    const k = await create({ name: 'key-inline', private_key: key.privateKey, username: '  ' });
    expect(k.json()).toMatchObject({ auth_type: 'key', has_credentials: true, username: 'root' });
    expect(k.json()).not.toHaveProperty('private_key');

    const rows = await t.app.services.db.selectFrom('servers').selectAll().where('id', 'in', [pw.json().id, k.json().id]).execute();
    const raw = JSON.stringify(rows);
    for (const s of secrets) expect(raw).not.toContain(s);

    // The wrong kind for the auth type does not count as credentials.
    const flipped = await call('PUT', `/api/servers/${pw.json().id}`, { auth_type: 'key' });
    expect(flipped.json()).toMatchObject({ auth_type: 'key', has_credentials: false });
  });

  it('resolves targets for other modules: inline first, then presets; the server user wins', async () => {
    const c = t.app.services;
    const inline = (await create({ name: 'target-inline', username: 'alice', private_key: rsaPkcs8.privateKey })).json();
    const target = await c.servers.connectionFor(inline.id);
    expect(target).toMatchObject({ id: inline.id, name: 'target-inline', host: '127.0.0.1', port: 22, username: 'alice', hostKeyFingerprint: null });
    // PKCS#8 is handed to ssh2 in the PKCS#1 form it can read.
    expect(target.auth).toMatchObject({ type: 'key' });
    expect((target.auth as { privateKey: string }).privateKey).toContain('BEGIN RSA PRIVATE KEY');
    // What other modules read (`get`) carries no secret column at all; only `connectionFor` opens them.
    const record = await c.servers.get(inline.id);
    expect(record).toMatchObject({ id: inline.id, name: 'target-inline', username: 'alice' });
    for (const secret of ['password_enc', 'private_key_enc', 'agent_token_hash']) expect(record).not.toHaveProperty(secret);

    const preset = (await call('POST', '/api/presets', { name: 'p', username: 'preset-user', encrypted_pw: password })).json();
    const viaPreset = (await create({ name: 'target-preset', password_preset_id: preset.id })).json();
    expect(viaPreset).toMatchObject({ auth_type: 'password', has_credentials: true, password_preset_id: preset.id });
    const t2 = await c.servers.connectionFor(viaPreset.id);
    expect(t2.username).toBe('root');
    expect(t2.auth).toEqual({ type: 'password', password });

    const keyPreset = (await call('POST', '/api/ssh-key-presets', { name: 'kp', private_key: key.privateKey })).json();
    const viaKey = (await create({ name: 'target-key-preset', auth_type: 'key', ssh_key_preset_id: keyPreset.id })).json();
    expect((await c.servers.connectionFor(viaKey.id)).auth).toEqual({ type: 'key', privateKey: key.privateKey.replace(/\s+$/, '\n') });

    // Choosing a preset replaces the inline secret of that kind, and the other way round.
    const switched = (await call('PUT', `/api/servers/${inline.id}`, { ssh_key_preset_id: keyPreset.id })).json();
    expect(switched).toMatchObject({ ssh_key_preset_id: keyPreset.id, has_credentials: true });
    const back = (await call('PUT', `/api/servers/${inline.id}`, { private_key: rsaPkcs8.privateKey })).json();
    expect(back).toMatchObject({ ssh_key_preset_id: null, has_credentials: true });
    expect((await create({ name: 'both', private_key: key.privateKey, ssh_key_preset_id: keyPreset.id })).statusCode).toBe(400);

    // Deleting a preset detaches it from its servers.
    expect((await call('DELETE', `/api/ssh-key-presets/${keyPreset.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/servers/${viaKey.id}`)).json()).toMatchObject({ ssh_key_preset_id: null, has_credentials: false });
    await expect(c.servers.connectionFor(viaKey.id)).rejects.toMatchObject({ statusCode: 400 });
    await expect(c.servers.connectionFor(999999)).rejects.toMatchObject({ statusCode: 404, message: 'Server not found' });
  });

  it('updates only the given fields; a new address forgets the pinned host key', async () => {
    const fp = 'SHA256:' + 'A'.repeat(43);
    const s = (await create({ name: 'partial', port: 2222, target_path: '/srv/app', tags: ['a'], host_key_fingerprint: fp })).json();
    expect(s.host_key_fingerprint).toBe(fp);
    const u = await call('PUT', `/api/servers/${s.id}`, { tags: ['b', 'c'] });
    expect(u.statusCode).toBe(200);
    expect(u.json()).toMatchObject({ name: 'partial', port: 2222, target_path: '/srv/app', tags: ['b', 'c'], host_key_fingerprint: fp });
    expect((await call('PUT', `/api/servers/${s.id}`, { target_path: null })).json().target_path).toBeNull();
    expect((await call('PUT', `/api/servers/${s.id}`, { port: 2223 })).json().host_key_fingerprint).toBeNull();
    expect((await call('PUT', `/api/servers/${s.id}`, { host_key_fingerprint: fp.slice(7) + '=' })).json().host_key_fingerprint).toBe(fp);
    expect((await audits('update_server')).some((a) => a.target_id === String(s.id) && a.target_type === 'server')).toBe(true);
  });

  it('refuses duplicate names and missing presets with 400', async () => {
    await create({ name: 'dup' });
    const dup = await create({ name: 'dup' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().detail).toMatch(/already exists/);
    const other = (await create({ name: 'not-dup' })).json();
    expect((await call('PUT', `/api/servers/${other.id}`, { name: 'dup' })).statusCode).toBe(400);
    expect((await call('PUT', `/api/servers/${other.id}`, { name: 'not-dup' })).statusCode).toBe(200);
    expect((await create({ name: 'np', password_preset_id: 999999 })).statusCode).toBe(400);
    expect((await create({ name: 'nk', ssh_key_preset_id: 999999 })).statusCode).toBe(400);
    expect((await call('GET', '/api/servers')).json().filter((s: { name: string }) => ['np', 'nk'].includes(s.name))).toEqual([]);
  });

  it('answers 400 for bad business input and changes nothing', async () => {
    const before = (await call('GET', '/api/servers')).json().length;
    const cases: Array<Record<string, unknown>> = [
      { name: 'bad-key', private_key: 'not a key' },
      { name: 'pub-key', private_key: key.publicKey },
      { name: 'bad-host', host: 'two words' },
      { name: 'opt-host', host: '-oProxyCommand=touch /tmp/x' },
      { name: 'bad-user', username: '-oProxyCommand=x' },
      { name: 'bad-fp', host_key_fingerprint: 'MD5:aa:bb' },
      { name: '   ' },
    ];
    for (const body of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().detail).toBe('string');
    }
    expect((await call('GET', '/api/servers')).json().length).toBe(before);
  });

  it('answers 422 for schema failures', async () => {
    const cases: Array<Record<string, unknown>> = [
      { name: 'p', port: 70000 },
      { name: 'p', port: 0 },
      { name: 'x'.repeat(101) },
      { name: 'tags', tags: [1, 2] },
      { name: 'tags', tags: 'prod' },
      { name: 'tags', tags: [{ a: 1 }] },
      { name: 'auth', auth_type: 'kerberos' },
      { name: 'nohost', host: undefined },
      { name: 'nul\u0000' },
    ];
    for (const body of cases) {
      const res = await call('POST', '/api/servers', { host: '127.0.0.1', ...body, ...('host' in body ? { host: body.host } : {}) });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ detail: expect.stringMatching(/^Validation failed: body/), code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^body/) })]) });
    }
    const s = (await create({ name: 'schema-put' })).json();
    expect((await call('PUT', `/api/servers/${s.id}`, { port: 70000 })).statusCode).toBe(422);
    expect((await call('PUT', `/api/servers/${s.id}`, { tags: [3] })).statusCode).toBe(422);
    expect((await call('GET', '/api/servers/abc')).statusCode).toBe(422);
  });

  it('answers 404 Server not found for unknown ids', async () => {
    const nf = { detail: 'Server not found', code: 'server_not_found' };
    expect((await call('GET', '/api/servers/999999')).json()).toEqual(nf);
    expect((await call('PUT', '/api/servers/999999', { name: 'x' })).json()).toEqual(nf);
    expect((await call('DELETE', '/api/servers/999999')).statusCode).toBe(404);
    expect((await call('POST', '/api/servers/999999/test')).json()).toEqual(nf);
    expect((await call('POST', '/api/servers/999999/forget-host-key')).json()).toEqual(nf);
  });

  it('deletes with 204 and audits it', async () => {
    const s = (await create({ name: 'to-delete' })).json();
    const del = await call('DELETE', `/api/servers/${s.id}`);
    expect(del.statusCode).toBe(204);
    expect((await call('GET', `/api/servers/${s.id}`)).statusCode).toBe(404);
    const a = (await audits('delete_server')).find((r) => r.target_id === String(s.id));
    expect(a).toMatchObject({ target_type: 'server', target_name: null });
  });

  it('stores names and paths with shell metacharacters literally', async () => {
    const s = await create({ name: INJECTION, target_path: `/tmp/${INJECTION}`, tags: [INJECTION] });
    expect(s.statusCode).toBe(201);
    const got = (await call('GET', `/api/servers/${s.json().id}`)).json();
    expect(got).toMatchObject({ name: INJECTION, target_path: `/tmp/${INJECTION}`, tags: [INJECTION] });
  });

  it('needs authentication', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/servers' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/servers/1/test' })).statusCode).toBe(401);
  });

  it('never logs credentials', () => {
    const text = logs.text();
    expect(text.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text).not.toContain(s);
  });
});
