/** "Sign out of other sessions": every other login ends at once; the caller continues with the new pair. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('sign out other sessions on %s', (db) => {
  let t: TestApp;
  const login = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  };
  const me = (token: string) => t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token } });

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  it('ends the other logins (access and refresh) and answers the caller a working pair', async () => {
    const mine = await login();
    const other = await login();
    expect((await me(other.access_token)).statusCode).toBe(200);

    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out-others', headers: { authorization: `Bearer ${mine.access_token}` } });
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer', expires_in: 1800 });

    expect((await me(other.access_token)).statusCode).toBe(401);
    expect((await refresh(other.refresh_token)).statusCode).toBe(401);
    expect((await me(next.access_token)).statusCode).toBe(200);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);

    const audit = (await t.app.inject({ url: '/api/audit?action=sign_out_other_sessions', headers: { authorization: `Bearer ${next.access_token}` } })).json();
    expect(audit.total).toBe(1);
    expect(audit.items[0]).toMatchObject({ admin_username: ADMIN_USERNAME, target_type: 'admin' });
  });

  it('is refused to the API key (403 api_key_refused) and without a token (401)', async () => {
    const { access_token } = await login();
    const key = (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: { authorization: `Bearer ${access_token}` } })).json().value;
    const byKey = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out-others', headers: { 'x-api-key': key } });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('api_key_refused');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/sign-out-others' })).statusCode).toBe(401);
  });
});
