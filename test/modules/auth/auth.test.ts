import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('auth on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, headers });

  it('logs in, returns a token pair and me', async () => {
    const res = await login({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 1800 });
    const me = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: ADMIN_USERNAME, totp_enabled: false });
    expect(typeof me.json().id).toBe('number');
    // Spec, Authentication 5: the access token carries a token_version claim.
    const payload = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ token_version: 0, sub: String(me.json().id), username: ADMIN_USERNAME });
  });

  it('answers a wrong password and an unknown user the same way', async () => {
    const a = await login({ username: ADMIN_USERNAME, password: 'wrong-password' }, { 'x-test': 'a' });
    const b = await login({ username: 'nobody', password: 'wrong-password' });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json()).toEqual(b.json());
  });

  it('refreshes, and a refresh token is not an access token', async () => {
    const pair = (await login({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).json();
    const r = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: pair.refresh_token } });
    expect(r.statusCode).toBe(200);
    expect(r.json().access_token).toBeTruthy();
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: pair.access_token } });
    expect(bad.statusCode).toBe(401);
    const asAccess = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${pair.refresh_token}` } });
    expect(asAccess.statusCode).toBe(401);
  });

  it('TOTP: setup, enable, then login needs a code', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/admins',
      headers: await t.auth(),
      payload: { username: 'totpuser', password: 'totp-password-1' },
    });
    expect(other.statusCode).toBe(201);
    const tok = (await login({ username: 'totpuser', password: 'totp-password-1' })).json().access_token;
    const h = { authorization: `Bearer ${tok}` };
    const setup = await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: h });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: h, payload: { code: '000000', current_password: 'totp-password-1' } })).statusCode).toBe(400);
    const en = await t.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: h, payload: { code: totp.generate(), current_password: 'totp-password-1' } });
    expect(en.statusCode).toBe(200);
    const need = await login({ username: 'totpuser', password: 'totp-password-1' });
    expect(need.statusCode).toBe(401);
    expect(need.json().detail).toBe('totp_required');
    const wrong = await login({ username: 'totpuser', password: 'totp-password-1', totp_code: '123456' });
    expect(wrong.json().detail).toBe('totp_invalid');
    // The enabling code is spent; the next step's code is inside the ±1 window.
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    const ok = await login({ username: 'totpuser', password: 'totp-password-1', totp_code: next });
    expect(ok.statusCode).toBe(200);
  });
});
