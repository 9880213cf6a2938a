/**
 * Admin rows are kept in memory by each worker between requests; these tests prove that a
 * password change (which revokes every earlier token), a deleted admin and a TOTP change still
 * take effect at once on the worker that made them, at once on another worker sharing Redis,
 * and within MAX_AGE_MS on a worker that cannot hear the announcement (its own memory cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AGE_MS } from '../../../src/modules/admins/admin-lookup.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { backends, eventually } from '../agent/agent-helpers.js';

describe.each(backends())('admin changes across workers on %s + %s cache', (db, cache) => {
  let a: TestApp;
  let b: TestApp;
  let clock = Date.now();

  beforeAll(async () => {
    a = await makeTestApp({ db, cache });
    b = await makeTestApp({ shareWith: a, now: () => clock });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const me = (t: TestApp, token: string) => t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const login = async (t: TestApp, username: string, password: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };
  /** Redis carries the announcement to B; its own memory cache cannot, so only the age bound does. */
  const rejectedOnB = async (token: string) => {
    if (cache === 'memory') clock += MAX_AGE_MS;
    await eventually(async () => (await me(b, token)).statusCode === 401, 2_000, 5);
  };

  it('a password change on one worker revokes the old token on both', async () => {
    await a.app.inject({ method: 'POST', url: '/api/admins', headers: await a.auth(), payload: { username: 'ops', password: 'ops-password-1' } });
    const old = await login(a, 'ops', 'ops-password-1');
    expect((await me(a, old)).statusCode).toBe(200);
    expect((await me(b, old)).statusCode).toBe(200);

    const changed = await a.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${old}` },
      payload: { current_password: 'ops-password-1', new_password: 'ops-password-2' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(a, old)).statusCode).toBe(401);
    await rejectedOnB(old);
    expect((await me(b, await login(a, 'ops', 'ops-password-2'))).statusCode).toBe(200);
  });

  it('a deleted admin is refused on both workers', async () => {
    const created = await a.app.inject({
      method: 'POST', url: '/api/admins', headers: await a.auth(), payload: { username: 'temp', password: 'temp-password-1' },
    });
    const token = await login(a, 'temp', 'temp-password-1');
    expect((await me(b, token)).statusCode).toBe(200);
    const del = await a.app.inject({ method: 'DELETE', url: `/api/admins/${created.json().id}`, headers: await a.auth() });
    expect(del.statusCode).toBeLessThan(300);
    expect((await me(a, token)).statusCode).toBe(401);
    await rejectedOnB(token);
  });

  it('the current admin shows a TOTP change on the next request', async () => {
    const token = await login(a, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect((await me(a, token)).json().totp_enabled).toBe(false);
    const setup = await a.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: { authorization: `Bearer ${token}` } });
    expect(setup.statusCode).toBe(200);
    const { TOTP, Secret } = await import('otpauth');
    const code = new TOTP({ secret: Secret.fromBase32(setup.json().secret), digits: 6, period: 30 }).generate();
    const en = await a.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: { authorization: `Bearer ${token}` }, payload: { code, current_password: ADMIN_PASSWORD } });
    expect(en.statusCode).toBe(200);
    expect((await me(a, token)).json().totp_enabled).toBe(true);
  });
});
