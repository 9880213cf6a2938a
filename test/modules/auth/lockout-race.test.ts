/**
 * The lockout must hold against parallel requests: each attempt is counted before its password is
 * verified, so a burst of wrong passwords gets at most the limit of answers that actually checked
 * the password, whatever the timing, on the in-process cache and on Redis alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCKOUT_LIMIT } from '../../../src/modules/auth/login-guard.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import type { CacheKind, DbKind } from '../../helpers/targets.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const backends: Array<[DbKind, CacheKind]> = [['sqlite', 'memory']];
if (process.env.TEST_DATABASE_URL && process.env.TEST_CACHE_URL) backends.push(['postgres', 'redis']);

const login = (app: TestApp, password: string, remoteAddress = '127.0.0.1', username = ADMIN_USERNAME) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

async function apiHeaders(app: TestApp): Promise<Record<string, string>> {
  const c = app.app.services;
  return { 'x-api-key': c.cipher.decrypt(c.settings.get('api_key')!) };
}

describe.each(backends)('lockout under parallel requests on %s + %s', (db, cache) => {
  it('100 parallel wrong logins for one user from one address: at most 5 answered 401, the rest 429', async () => {
    t = await makeTestApp({ db, cache });
    const app = t;
    const answers = await Promise.all(Array.from({ length: 100 }, () => login(app, 'wrong-password')));
    const codes = answers.map((r) => r.statusCode);
    const unauthorized = codes.filter((c) => c === 401).length;
    expect(unauthorized).toBeGreaterThan(0);
    expect(unauthorized).toBeLessThanOrEqual(LOCKOUT_LIMIT);
    expect(codes.filter((c) => c === 429).length).toBe(100 - unauthorized);
    for (const r of answers.filter((a) => a.statusCode === 429)) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // The refused attempts did not count as failures; the ones that checked the password did.
    const audit = await app.app.inject({ url: '/api/audit?action=login_failed', headers: await apiHeaders(app) });
    expect(audit.json().total).toBe(unauthorized);
    // Locked: even the right password is refused now.
    expect((await login(app, ADMIN_PASSWORD)).statusCode).toBe(429);
  });

  it('parallel logins with the right password all succeed and leave no count behind', async () => {
    t = await makeTestApp({ db, cache });
    const app = t;
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(app, ADMIN_PASSWORD, '10.1.1.1')));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    // The address's reserved slots were given back: it may still fail the full limit for another user.
    for (let i = 0; i < LOCKOUT_LIMIT; i++) expect((await login(app, 'wrong', '10.1.1.1', 'someone')).statusCode).toBe(401);
    expect((await login(app, 'wrong', '10.1.1.1', 'someone-else')).statusCode).toBe(429);
  });
});
