/**
 * TOTP is switched on and off only with the password (setup while it is on is refused), so a
 * stolen access token cannot enrol its own authenticator and lock the owner out. Each code
 * is accepted once: the last used time step is kept per admin in the database, so a replay is
 * refused on every process, whatever the cache.
 */
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

const STEP_MS = 30_000;

describe.each(dbKinds())('TOTP on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  let seq = 0;
  /** A fresh admin with TOTP enabled by a code of the current step; returns what the tests need. */
  async function enrolled(app: TestApp = t) {
    const username = `totp${++seq}`;
    const password = `totp-password-${seq}`;
    const created = await app.app.inject({ method: 'POST', url: '/api/admins', headers: await app.auth(), payload: { username, password } });
    expect(created.statusCode).toBe(201);
    const token = (await login(app, { username, password })).json().access_token as string;
    const h = { authorization: `Bearer ${token}` };
    const setup = await app.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: h });
    expect(setup.statusCode).toBe(200);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret), digits: 6, period: 30 });
    const now = Date.now();
    const enableCode = totp.generate({ timestamp: now });
    const en = await app.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: h, payload: { code: enableCode, current_password: password } });
    expect(en.statusCode).toBe(200);
    /** The code of the step `offset` steps from the one that enabled TOTP. */
    const code = (offset: number) => totp.generate({ timestamp: now + offset * STEP_MS });
    return { username, password, h, enableCode, code };
  }

  const login = (app: TestApp, body: Record<string, unknown>) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: `10.7.0.${seq}` });

  /** A fresh admin after TOTP setup, not yet enabled. */
  async function setUp() {
    const username = `totp${++seq}`;
    const password = `totp-password-${seq}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/admins', headers: await t.auth(), payload: { username, password } });
    expect(created.statusCode).toBe(201);
    const token = (await login(t, { username, password })).json().access_token as string;
    const h = { authorization: `Bearer ${token}` };
    const setup = await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: h });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret), digits: 6, period: 30 });
    const enable = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: h, payload });
    const isOn = async () => (await t.app.inject({ url: '/api/auth/me', headers: h })).json().totp_enabled as boolean;
    return { username, password, totp, enable, isOn };
  }

  it('enable without current_password is a 422 and leaves TOTP off', async () => {
    const a = await setUp();
    const res = await a.enable({ code: a.totp.generate() });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.current_password', message: expect.any(String) }] });
    expect(await a.isOn()).toBe(false);
  });

  it('enable with a wrong password is a 400 wrong_password and audited; the code stays unused', async () => {
    const a = await setUp();
    const code = a.totp.generate();
    const wrong = await a.enable({ code, current_password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Current password is incorrect', code: 'wrong_password' });
    expect(await a.isOn()).toBe(false);
    const audit = await t.app.inject({ url: `/api/audit?action=reauth_failed&admin_username=${a.username}`, headers: await t.auth() });
    expect(audit.json().items.map((r: { detail: string }) => r.detail)).toEqual(['endpoint=POST /api/auth/totp/enable']);
    // The password is checked before the code: the code was not spent and still enables TOTP.
    expect((await a.enable({ code, current_password: a.password })).statusCode).toBe(200);
    expect(await a.isOn()).toBe(true);
  });

  it('setup while TOTP is on is refused with 409 totp_enabled and leaves TOTP on', async () => {
    const a = await enrolled();
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: a.h });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'totp_enabled', code: 'totp_enabled' });
    expect((await t.app.inject({ url: '/api/auth/me', headers: a.h })).json().totp_enabled).toBe(true);
    const noCode = await login(t, { username: a.username, password: a.password });
    expect(noCode.json()).toEqual({ detail: 'totp_required', code: 'totp_required' });
    // Turning it off takes the password; then setup works again.
    const off = await t.app.inject({ method: 'POST', url: '/api/auth/totp/disable', headers: a.h, payload: { current_password: a.password } });
    expect(off.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: a.h })).statusCode).toBe(200);
  });

  it('a code is accepted once at login', async () => {
    const a = await enrolled();
    const code = a.code(1);
    expect((await login(t, { username: a.username, password: a.password, totp_code: code })).statusCode).toBe(200);
    const replay = await login(t, { username: a.username, password: a.password, totp_code: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: 'totp_invalid', code: 'totp_invalid' });
    // An older step than the last one used is refused as well.
    expect((await login(t, { username: a.username, password: a.password, totp_code: a.code(0) })).statusCode).toBe(401);
  });

  it('the code that enabled TOTP cannot log in', async () => {
    const a = await enrolled();
    const replay = await login(t, { username: a.username, password: a.password, totp_code: a.enableCode });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: 'totp_invalid', code: 'totp_invalid' });
    expect((await login(t, { username: a.username, password: a.password, totp_code: a.code(1) })).statusCode).toBe(200);
  });

  it('parallel logins with one code: exactly one succeeds', async () => {
    const a = await enrolled();
    const code = a.code(1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => login(t, { username: a.username, password: a.password, totp_code: code })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it('a code used on one process is refused on another sharing the database', async () => {
    // Each app has its own in-process cache here: only the database is shared.
    const other = await makeTestApp({ shareWith: t });
    try {
      const a = await enrolled();
      const code = a.code(1);
      expect((await login(t, { username: a.username, password: a.password, totp_code: code })).statusCode).toBe(200);
      expect((await login(other, { username: a.username, password: a.password, totp_code: code })).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
