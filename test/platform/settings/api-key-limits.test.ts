/**
 * The API key cannot weaken access control or read a stored secret: every setting marked as
 * guarding access, every write of the login allowlist and every reveal answers it 403
 * `api_key_refused` and changes nothing, while an administrator's token still does each of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_GUARD_KEYS, MUTABLE_KEYS } from '../../../src/platform/settings/setting-keys.js';
import { generateKey } from '../../modules/ssh-key-presets/keygen.js';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import type { CacheKind, DbKind } from '../../helpers/targets.js';
import { offlineEnv } from './fake-http.js';

const backends: Array<[DbKind, CacheKind]> = [['sqlite', 'memory']];
if (process.env.TEST_DATABASE_URL && process.env.TEST_CACHE_URL) backends.push(['postgres', 'redis']);

/** A value an administrator may store for each guarded key (none of them locks the test out). */
const ADMIN_VALUES: Record<string, string> = {
  credential_reauth: 'true',
  login_allowlist_enabled: 'false',
  session_max_age_days: '45',
  login_manual_ips: '203.0.113.5',
  login_allowed_ips: '203.0.113.5',
  login_subscription_url: 'https://allow.example.com/list.txt',
  login_subscription_ips: '198.51.100.9',
  notify_allow_private_targets: 'false',
};

const REFUSED = { detail: 'This action needs an administrator login, not the API key', code: 'api_key_refused' };

describe.each(backends)('API key limits on %s + %s', (db, cache) => {
  let t: TestApp;
  let key: Record<string, string>;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeTestApp({ db, cache, env: offlineEnv() });
    admin = await t.auth();
    key = { 'x-api-key': (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: admin })).json().value };
  });
  afterAll(async () => t?.close());

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (headers: Record<string, string>, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const stored = (k: string) => t.app.services.settings.get(k);
  const audits = async () => (await call(admin, 'GET', '/api/audit?limit=500')).json().total as number;

  it('marks at least the access settings and the allowlist contents, all of them writable keys', () => {
    for (const k of Object.keys(ADMIN_VALUES)) expect(ACCESS_GUARD_KEYS.has(k), k).toBe(true);
    for (const k of ACCESS_GUARD_KEYS) expect(MUTABLE_KEYS.has(k), k).toBe(true);
  });

  it.each([...ACCESS_GUARD_KEYS])('PUT /api/settings/%s is refused to the API key and left unchanged', async (k) => {
    const before = stored(k);
    const auditsBefore = await audits();
    const res = await call(key, 'PUT', `/api/settings/${k}`, { value: ADMIN_VALUES[k] ?? 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(REFUSED);
    expect(stored(k)).toBe(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it.each([...ACCESS_GUARD_KEYS])('PUT /api/settings/%s still works with an administrator token', async (k) => {
    const value = ADMIN_VALUES[k];
    expect(value, `give ${k} an administrator value in this test`).toBeDefined();
    const res = await call(admin, 'PUT', `/api/settings/${k}`, { value });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ key: k, value });
  });

  it('the key still writes and reads the other settings', async () => {
    const res = await call(key, 'PUT', '/api/settings/system_title', { value: 'Set by a machine' });
    expect(res.statusCode).toBe(200);
    expect((await call(key, 'GET', '/api/settings/credential_reauth')).statusCode).toBe(200);
    expect((await call(key, 'GET', '/api/settings/ip-allowlist')).statusCode).toBe(200);
    const unmarked = [...MUTABLE_KEYS].filter((k) => !ACCESS_GUARD_KEYS.has(k));
    expect(unmarked).toContain('system_title');
  });

  it('every write of the login allowlist is refused to the key: no side door around the toggle', async () => {
    await call(admin, 'POST', '/api/settings/ip-allowlist', { manual_ips: ['203.0.113.5'], enabled: false });
    const before = (await call(admin, 'GET', '/api/settings/ip-allowlist')).json();
    const writes: Array<[Method, string, object | undefined]> = [
      ['POST', '/api/settings/ip-allowlist', { manual_ips: ['0.0.0.0/0'], enabled: false }],
      ['POST', '/api/settings/ip-allowlist/toggle?enabled=false', undefined],
      ['POST', '/api/settings/ip-allowlist/toggle?enabled=true', undefined],
      ['POST', '/api/settings/ip-allowlist/manual', { ips: ['0.0.0.0/0'] }],
      ['DELETE', '/api/settings/ip-allowlist/ip?ip=203.0.113.5', undefined],
    ];
    for (const [method, url, body] of writes) {
      const res = await call(key, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(REFUSED);
    }
    expect((await call(admin, 'GET', '/api/settings/ip-allowlist')).json()).toEqual(before);
    // Parsing a subscription writes nothing: still the key's (here the fetch itself is refused).
    const parse = await call(key, 'POST', '/api/settings/ip-allowlist/parse-subscription', { url: 'http://10.255.255.1/list' });
    expect(parse.statusCode).not.toBe(403);
    expect(parse.statusCode).toBeLessThan(500);
    // An administrator does all of it (the removal first, while the entry is there).
    for (const [method, url, body] of [...writes].reverse()) expect((await call(admin, method, url, body)).statusCode, `${method} ${url}`).toBe(200);
  });

  it('no reveal answers the key; an administrator still reveals each secret', async () => {
    expect((await call(admin, 'PUT', '/api/settings/messenger_bot_token', { value: '111:default-bot-token' })).statusCode).toBe(200);
    expect((await call(admin, 'PUT', '/api/settings/messenger_offline_bot_token', { value: '222:offline-bot-token' })).statusCode).toBe(200);
    const preset = (await call(admin, 'POST', '/api/presets', { name: 'reveal-pw', encrypted_pw: 'preset-secret-pw' })).json().id as number;
    const sshPreset = (await call(admin, 'POST', '/api/ssh-key-presets', { name: 'reveal-key', private_key: generateKey('ed25519').privateKey })).json().id as number;
    const reveals: Array<[string, object | undefined, string]> = [
      ['/api/settings/api-key/reveal', undefined, key['x-api-key']],
      ['/api/settings/messenger/reveal-token', undefined, '111:default-bot-token'],
      ['/api/settings/messenger/offline/reveal-token', undefined, '222:offline-bot-token'],
      [`/api/presets/${preset}/reveal`, { current_password: ADMIN_PASSWORD }, 'preset-secret-pw'],
      [`/api/ssh-key-presets/${sshPreset}/reveal`, { current_password: ADMIN_PASSWORD }, 'PRIVATE KEY'],
    ];
    const auditsBefore = await audits();
    for (const [url, body] of reveals) {
      const res = await call(key, 'POST', url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual(REFUSED);
    }
    expect(await audits()).toBe(auditsBefore);
    for (const [url, body, secret] of reveals) {
      const res = await call(admin, 'POST', url, body);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(secret);
    }
  });

  it('every route named reveal refuses the key, so a new one cannot be forgotten', async () => {
    const reveals = t.app.routeTable.filter((r) => /reveal/i.test(r.url) && r.method !== 'HEAD');
    expect(reveals.length).toBeGreaterThanOrEqual(5);
    for (const r of reveals) {
      const url = r.url.replace(/:([A-Za-z_]+)/g, '1');
      const res = await call(key, r.method as Method, url, {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().code).toBe('api_key_refused');
    }
  });
});
