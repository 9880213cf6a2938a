import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { cacheKinds } from '../../helpers/targets.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const login = (app: TestApp, password: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password }, headers, remoteAddress });

describe.each(cacheKinds())('lockout on %s cache', (cache) => {
  it('locks a username after 5 failures, with Retry-After, hiding whether the password was right', async () => {
    t = await makeTestApp({ cache });
    for (let i = 0; i < 5; i++) expect((await login(t, 'wrong')).statusCode).toBe(401);
    const locked = await login(t, 'wrong');
    expect(locked.statusCode).toBe(429);
    const retry = Number(locked.headers['retry-after']);
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
    expect(locked.json()).toEqual({ detail: expect.any(String), code: 'login_locked' });
    const right = await login(t, ADMIN_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.body).toBe(locked.body);
    const audit = await t.app.inject({ url: '/api/audit?action=login_failed', headers: { 'x-api-key': await apiKey(t) } });
    expect(audit.json().total).toBe(5);
  });

  it('a successful login clears the username count', async () => {
    t = await makeTestApp({ cache });
    for (let i = 0; i < 4; i++) await login(t, 'wrong', {}, '10.0.0.1');
    expect((await login(t, ADMIN_PASSWORD, {}, '10.0.0.1')).statusCode).toBe(200);
    // From another address the username starts again from zero: five more failures are allowed.
    for (let i = 0; i < 5; i++) expect((await login(t, 'wrong', {}, '10.0.0.2')).statusCode).toBe(401);
    expect((await login(t, 'wrong', {}, '10.0.0.3')).statusCode).toBe(429);
  });
});

async function apiKey(app: TestApp): Promise<string> {
  const c = app.app.services;
  return c.cipher.decrypt(c.settings.get('api_key')!);
}

describe('login IP allowlist', () => {
  it('refuses callers outside the list with 403 ip_blocked and audits it', async () => {
    t = await makeTestApp();
    await t.app.services.settings.set('login_manual_ips', '10.1.2.3,192.168.0.0/16');
    await t.app.services.settings.set('login_allowlist_enabled', 'true');
    const res = await login(t, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'ip_blocked', code: 'ip_blocked' });
    const audit = await t.app.inject({ url: '/api/audit?action=login_ip_blocked', headers: { 'x-api-key': await apiKey(t) } });
    expect(audit.json().total).toBe(1);
    // The allowlist check comes before the lockout and the credentials: a wrong password is still 403.
    expect((await login(t, 'wrong')).statusCode).toBe(403);
  });

  it('matches exact addresses, CIDR ranges and host names', async () => {
    t = await makeTestApp({ resolver: async (host) => (host === 'office.example.com' ? ['127.0.0.1'] : []) });
    const s = t.app.services.settings;
    await s.set('login_allowlist_enabled', 'On');
    await s.set('login_manual_ips', '127.0.0.1');
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200);
    await s.set('login_manual_ips', '127.0.0.0/8');
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200);
    await s.set('login_manual_ips', 'office.example.com');
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200);
    await s.set('login_manual_ips', 'elsewhere.example.com,10.0.0.0/8');
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(403);
    await s.set('login_allowlist_enabled', 'false');
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('checks the union of subscription and manual entries; a direct PUT of either applies to the next login', async () => {
    const app = await makeTestApp();
    t = app;
    const h = await app.auth();
    const put = (key: string, value: string) => app.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });
    expect((await put('login_subscription_ips', '127.0.0.1,198.51.100.9')).statusCode).toBe(200);
    expect((await put('login_manual_ips', '203.0.113.5')).statusCode).toBe(200);
    expect((await put('login_allowlist_enabled', 'true')).statusCode).toBe(200);
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200); // via the subscription list
    expect((await put('login_subscription_ips', '198.51.100.9')).statusCode).toBe(200);
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(403);
    expect((await put('login_manual_ips', '203.0.113.5,127.0.0.0/8')).statusCode).toBe(200);
    expect((await login(t, ADMIN_PASSWORD)).statusCode).toBe(200); // via the manual list
    // The stored union follows, whichever way the lists were written.
    await expect
      .poll(async () => (await app.app.inject({ url: '/api/settings/login_allowed_ips', headers: h })).json().value)
      .toBe('198.51.100.9,203.0.113.5,127.0.0.0/8');
  });

  it('with TRUST_PROXY=1 the allowlist sees the address the proxy appended, never one the client wrote', async () => {
    t = await makeTestApp({ env: { TRUST_PROXY: '1' } });
    await t.app.services.settings.set('login_manual_ips', '203.0.113.7');
    await t.app.services.settings.set('login_allowlist_enabled', 'yes');
    // nginx's $proxy_add_x_forwarded_for appends the real client to whatever the client sent.
    expect((await login(t, ADMIN_PASSWORD, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).statusCode).toBe(200);
    expect((await login(t, ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' })).statusCode).toBe(403);
    expect((await login(t, ADMIN_PASSWORD, { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(403);
    await t.close();
    t = await makeTestApp();
    await t.app.services.settings.set('login_manual_ips', '203.0.113.7');
    await t.app.services.settings.set('login_allowlist_enabled', 'yes');
    expect((await login(t, ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
  });
});

describe('tokens and admins', () => {
  it('a password change revokes earlier access and refresh tokens at once', async () => {
    t = await makeTestApp();
    const pair = (await login(t, ADMIN_PASSWORD)).json();
    const h = { authorization: `Bearer ${pair.access_token}` };
    const wrong = await t.app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: h,
      payload: { current_password: 'nope-nope', new_password: 'another-password' },
    });
    expect(wrong.statusCode).toBe(400);
    const empty = await t.app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: h,
      payload: { current_password: '', new_password: 'another-password' },
    });
    expect(empty.statusCode).toBe(400);
    const short = await t.app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: h,
      payload: { current_password: ADMIN_PASSWORD, new_password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    const ok = await t.app.inject({
      method: 'POST', url: '/api/auth/change-password', headers: h,
      payload: { current_password: ADMIN_PASSWORD, new_password: 'another-password' },
    });
    expect(ok.json()).toEqual({ success: true });
    expect((await t.app.inject({ url: '/api/auth/me', headers: h })).statusCode).toBe(401);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: pair.refresh_token } });
    expect(refreshed.statusCode).toBe(401);
    expect((await login(t, 'another-password')).statusCode).toBe(200);
  });

  it('X-API-Key authenticates as the pseudo-admin api', async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ url: '/api/auth/me', headers: { 'x-api-key': await apiKey(t) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('api');
  });

  it('admins: create, list, delete; the last admin cannot be deleted', async () => {
    t = await makeTestApp();
    const h = await t.auth();
    const created = await t.app.inject({ method: 'POST', url: '/api/admins', headers: h, payload: { username: 'ops', password: 'ops-password-1' } });
    expect(created.statusCode).toBe(201);
    const dup = await t.app.inject({ method: 'POST', url: '/api/admins', headers: h, payload: { username: 'ops', password: 'ops-password-1' } });
    expect(dup.statusCode).toBe(409);
    const list = (await t.app.inject({ url: '/api/admins', headers: h })).json();
    expect(list.map((a: { username: string }) => a.username)).toEqual([ADMIN_USERNAME, 'ops']);
    expect(JSON.stringify(list)).not.toMatch(/argon2|password/);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admins/${created.json().id}`, headers: h })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admins/${created.json().id}`, headers: h })).statusCode).toBe(404);
    const me = (await t.app.inject({ url: '/api/auth/me', headers: h })).json();
    const last = await t.app.inject({ method: 'DELETE', url: `/api/admins/${me.id}`, headers: h });
    expect(last.statusCode).toBe(400);
  });
});
