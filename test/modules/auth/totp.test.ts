/**
 * TOTP can only be turned off with the password (setup while it is on is refused), and each code
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
    const en = await app.app.inject({ method: 'POST', url: '/api/auth/totp/enable', headers: h, payload: { code: enableCode } });
    expect(en.statusCode).toBe(200);
    /** The code of the step `offset` steps from the one that enabled TOTP. */
    const code = (offset: number) => totp.generate({ timestamp: now + offset * STEP_MS });
    return { username, password, h, enableCode, code };
  }

  const login = (app: TestApp, body: Record<string, unknown>) =>
    app.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: `10.7.0.${seq}` });

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
