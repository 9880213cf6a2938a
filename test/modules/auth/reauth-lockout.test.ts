/**
 * Endpoints that re-ask the admin's own password (preset and SSH key preset reveal,
 * change-password, TOTP disable, API key rotation) count a wrong one as a failure of the login
 * lockout and audit it as `reauth_failed`: a stolen access token cannot be used to guess the
 * password without limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKOUT_LIMIT } from '../../../src/modules/auth/login-guard.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { CacheKind, DbKind } from '../../helpers/targets.js';

const backends: Array<[DbKind, CacheKind]> = [['sqlite', 'memory']];
if (process.env.TEST_DATABASE_URL && process.env.TEST_CACHE_URL) backends.push(['postgres', 'redis']);

/** Each endpoint that takes `current_password`, with a body that is otherwise valid. */
const REAUTH_ENDPOINTS: Array<{ url: string; body: Record<string, unknown> }> = [
  { url: '/api/presets/999999/reveal', body: {} },
  { url: '/api/ssh-key-presets/999999/reveal', body: {} },
  { url: '/api/auth/change-password', body: { new_password: 'a-new-password-1' } },
  { url: '/api/auth/totp/disable', body: {} },
  { url: '/api/settings/api-key/rotate', body: {} },
];

describe.each(backends)('wrong current passwords on %s + %s', (db, cache) => {
  let t: TestApp;
  let api: Record<string, string>;
  beforeAll(async () => {
    t = await makeTestApp({ db, cache });
    const c = t.app.services;
    api = { 'x-api-key': c.cipher.decrypt(c.settings.get('api_key')!) };
  });
  afterAll(async () => t?.close());

  let seq = 0;
  /** A fresh admin logged in from an address of its own. */
  async function fresh() {
    const n = ++seq;
    const username = `reauth${n}`;
    const password = `reauth-password-${n}`;
    const ip = `10.9.0.${n}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/admins', headers: await t.auth(), payload: { username, password } });
    expect(created.statusCode).toBe(201);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip });
    expect(login.statusCode).toBe(200);
    const h = { authorization: `Bearer ${login.json().access_token}` };
    const call = (url: string, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, headers: h, payload: body, remoteAddress: ip });
    return { username, password, ip, call };
  }

  const reauthFailures = async (username: string) => {
    const res = await t.app.inject({ url: `/api/audit?action=reauth_failed&admin_username=${username}&limit=100`, headers: api });
    return res.json().items as Array<{ detail: string | null }>;
  };

  it('each endpoint answers a wrong password with 400 and audits reauth_failed naming the endpoint', async () => {
    expect(REAUTH_ENDPOINTS.length).toBeLessThanOrEqual(LOCKOUT_LIMIT);
    const a = await fresh();
    for (const e of REAUTH_ENDPOINTS) {
      const res = await a.call(e.url, { ...e.body, current_password: 'not-the-password' });
      expect(res.statusCode, e.url).toBe(400);
      expect(res.json()).toEqual({ detail: 'Current password is incorrect', code: 'wrong_password' });
    }
    const details = (await reauthFailures(a.username)).map((r) => r.detail ?? '');
    for (const e of REAUTH_ENDPOINTS) {
      expect(details.some((d) => d.includes(e.url.replace('/999999', '/{id}'))), e.url).toBe(true);
    }
  });

  it('five wrong ones lock the username out: 429 with Retry-After on re-auth and on login', async () => {
    const a = await fresh();
    for (let i = 0; i < LOCKOUT_LIMIT; i++) {
      const e = REAUTH_ENDPOINTS[i % REAUTH_ENDPOINTS.length];
      expect((await a.call(e.url, { ...e.body, current_password: `wrong-${i}` })).statusCode).toBe(400);
    }
    // Even the right password is refused now, everywhere.
    const locked = await a.call('/api/presets/999999/reveal', { current_password: a.password });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const login = await t.app.inject({
      method: 'POST', url: '/api/auth/login', payload: { username: a.username, password: a.password }, remoteAddress: '10.9.9.9',
    });
    expect(login.statusCode).toBe(429);
    expect(Number(login.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('parallel wrong passwords on a re-auth endpoint cannot outrun the limit', async () => {
    const a = await fresh();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => a.call('/api/presets/999999/reveal', { current_password: 'parallel-wrong' })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(LOCKOUT_LIMIT);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(30 - LOCKOUT_LIMIT);
  });

  it('a right password is not counted', async () => {
    const a = await fresh();
    for (let i = 0; i < LOCKOUT_LIMIT + 2; i++) {
      expect((await a.call('/api/presets/999999/reveal', { current_password: a.password })).statusCode).toBe(404);
    }
    expect(await reauthFailures(a.username)).toEqual([]);
  });
});
