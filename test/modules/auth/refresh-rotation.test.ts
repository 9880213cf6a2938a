/**
 * Refresh tokens rotate, with reuse detection per login ("family", kept in the database): the used
 * token is refused afterwards, and presenting a used one revokes everything descended from that
 * login. Refresh applies the login allowlist, a login's session ends after session_max_age_days,
 * and logout revokes the login's family.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

interface Pair {
  access_token: string;
  refresh_token: string;
}

describe.each(dbKinds())('refresh tokens on %s', (db) => {
  let t: TestApp;
  let api: Record<string, string>;
  beforeAll(async () => {
    t = await makeTestApp({ db });
    const c = t.app.services;
    api = { 'x-api-key': c.cipher.decrypt(c.settings.get('api_key')!) };
  });
  afterAll(async () => t?.close());

  const login = async (): Promise<Pair> => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const refresh = (token: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token }, remoteAddress });
  const logout = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refresh_token: token } });
  const me = (access: string) => t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${access}` } });
  const audits = async (action: string) => (await t.app.inject({ url: `/api/audit?action=${action}`, headers: api })).json().total as number;

  it('rotates: each refresh token works once and the new pair works', async () => {
    const first = await login();
    const r2 = await refresh(first.refresh_token);
    expect(r2.statusCode).toBe(200);
    const second: Pair = r2.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).statusCode).toBe(200);
    const r3 = await refresh(second.refresh_token);
    expect(r3.statusCode).toBe(200);
    expect((await me(r3.json().access_token)).statusCode).toBe(200);
  });

  it('a used refresh token presented again revokes the whole family (401, audit refresh_reuse)', async () => {
    const before = await audits('refresh_reuse');
    const first = await login();
    const second: Pair = (await refresh(first.refresh_token)).json();
    const third: Pair = (await refresh(second.refresh_token)).json();
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ detail: expect.any(String), code: 'session_invalid' });
    expect(await audits('refresh_reuse')).toBe(before + 1);
    // The descendant (the thief's or the owner's, whichever is newer) is dead too.
    expect((await refresh(third.refresh_token)).statusCode).toBe(401);
    // Another login's tokens are untouched.
    const other = await login();
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('two parallel refreshes with one token: at most one wins, and the family is revoked', async () => {
    const first = await login();
    const answers = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toContain(401);
    for (const won of answers.filter((r) => r.statusCode === 200)) {
      expect((await refresh(won.json().refresh_token)).statusCode).toBe(401);
    }
  });

  it('applies the login allowlist (403 ip_blocked)', async () => {
    const first = await login();
    const s = t.app.services.settings;
    await s.set('login_manual_ips', '127.0.0.1');
    await s.set('login_allowlist_enabled', 'true');
    try {
      const blocked = await refresh(first.refresh_token, '198.51.100.23');
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({ detail: 'ip_blocked', code: 'ip_blocked' });
      // The refused attempt did not spend the token.
      expect((await refresh(first.refresh_token)).statusCode).toBe(200);
    } finally {
      await s.set('login_allowlist_enabled', 'false');
    }
  });

  it('session_max_age_days: a validated integer setting, default 30, that ends a login whatever the refreshes', async () => {
    const get = await t.app.inject({ url: '/api/settings/session_max_age_days', headers: api });
    expect(get.json()).toMatchObject({ key: 'session_max_age_days', value: '30' });
    // A setting that guards access: an administrator's (the API key is refused, see api-key-limits.test.ts).
    const admin = await t.auth();
    const put = (value: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/settings/session_max_age_days', headers: admin, payload: { value } });
    for (const bad of ['0', 'abc', '1.5', '-3', '100000']) expect((await put(bad)).statusCode, bad).toBe(400);

    const first = await login();
    const second: Pair = (await refresh(first.refresh_token)).json();
    // The login happened 31 days ago, as far as the server's records go.
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await t.app.services.db.updateTable('refresh_families').set({ created_at: old }).execute();
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);

    // A longer cap applies to the next refresh.
    const third = await login();
    await t.app.services.db.updateTable('refresh_families').set({ created_at: old }).execute();
    expect((await put('60')).statusCode).toBe(200);
    try {
      expect((await refresh(third.refresh_token)).statusCode).toBe(200);
    } finally {
      expect((await put('30')).statusCode).toBe(200);
    }
  });

  it('a login stores its family only when the password is right; a failed admin read releases the attempt', async () => {
    const families = async () => Number((await t.app.services.db.selectFrom('refresh_families').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await families();
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: 'not-the-password' } });
    expect(wrong.statusCode).toBe(401);
    expect(await families()).toBe(before);
    await login();
    expect(await families()).toBe(before + 1);
    // The admin row is read while the attempt is counted: a read that fails must not leave the
    // attempt in flight. Five left in flight (the lockout limit) would hold every later login
    // for the slot wait and then refuse it with 429.
    const spy = vi.spyOn(t.app.services.adminsRepo, 'findByUsername').mockRejectedValue(new Error('database went away'));
    try {
      for (let i = 0; i < 5; i++) {
        const failed = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
        expect(failed.statusCode).toBe(500);
        expect(failed.json()).not.toHaveProperty('stack');
      }
    } finally {
      spy.mockRestore();
    }
    const t0 = Date.now();
    await login();
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await families()).toBe(before + 2);
  });

  it('logout revokes the login’s refresh tokens (204), is idempotent, and refuses a bad token', async () => {
    const before = await audits('logout');
    const first = await login();
    const second: Pair = (await refresh(first.refresh_token)).json();
    const out = await logout(second.refresh_token);
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
    expect((await logout(second.refresh_token)).statusCode).toBe(204);
    expect(await audits('logout')).toBeGreaterThan(before);
    expect((await logout('not-a-token')).statusCode).toBe(401);
    expect((await logout(second.access_token)).statusCode).toBe(401);
    // Logging out with an older token of the family revokes it just the same.
    const other = await login();
    const otherNext: Pair = (await refresh(other.refresh_token)).json();
    expect((await logout(other.refresh_token)).statusCode).toBe(204);
    expect((await refresh(otherNext.refresh_token)).statusCode).toBe(401);
  });
});
