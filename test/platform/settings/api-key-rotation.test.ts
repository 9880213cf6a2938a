/**
 * The API key can be rotated by an administrator (with their password), the old key is refused at
 * once on every worker, and the key itself cannot manage administrators, passwords or TOTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

const apiKeyOf = (t: TestApp) => t.app.services.cipher.decrypt(t.app.services.settings.get('api_key')!);
const me = (t: TestApp, key: string) => t.app.inject({ url: '/api/auth/me', headers: { 'x-api-key': key } });
const rotate = (t: TestApp, headers: Record<string, string>, current_password: string) =>
  t.app.inject({ method: 'POST', url: '/api/settings/api-key/rotate', headers, payload: { current_password } });

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(dbKinds())('API key rotation on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  it('an admin rotates with their password; the old key is refused at once, the new one works; audited', async () => {
    const old = apiKeyOf(t);
    expect((await me(t, old)).statusCode).toBe(200);
    expect((await rotate(t, await t.auth(), 'not-my-password')).statusCode).toBe(400);
    expect((await me(t, old)).statusCode).toBe(200);

    const res = await rotate(t, await t.auth(), ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const { key, value } = res.json();
    expect(key).toBe('api_key');
    expect(value).toMatch(/^fa_[A-Za-z0-9_-]{20,}$/);
    expect(value).not.toBe(old);
    expect((await me(t, old)).statusCode).toBe(401);
    expect((await me(t, value)).statusCode).toBe(200);
    const reveal = await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: await t.auth() });
    expect(reveal.json().value).toBe(value);
    const audit = await t.app.inject({ url: '/api/audit?action=rotate_api_key', headers: await t.auth() });
    expect(audit.json().total).toBe(1);
    // Stored encrypted, like before.
    expect(t.app.services.settings.get('api_key')).not.toContain(value);
  });

  it('the API key cannot rotate itself, nor manage admins, passwords or TOTP (403)', async () => {
    const h = { 'x-api-key': apiKeyOf(t) };
    const refused: Array<[string, string, Record<string, unknown> | undefined]> = [
      ['POST', '/api/settings/api-key/rotate', { current_password: ADMIN_PASSWORD }],
      ['GET', '/api/admins', undefined],
      ['POST', '/api/admins', { username: 'by-key', password: 'by-key-password' }],
      ['DELETE', '/api/admins/1', undefined],
      ['POST', '/api/auth/change-password', { current_password: ADMIN_PASSWORD, new_password: 'by-key-password' }],
      ['POST', '/api/auth/totp/setup', undefined],
      ['POST', '/api/auth/totp/enable', { code: '123456', current_password: ADMIN_PASSWORD }],
      ['POST', '/api/auth/totp/disable', { current_password: ADMIN_PASSWORD }],
    ];
    for (const [method, url, payload] of refused) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: h, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ detail: expect.any(String), code: 'api_key_refused' });
    }
    const admins = await t.app.inject({ url: '/api/admins', headers: await t.auth() });
    expect(admins.json().map((a: { username: string }) => a.username)).not.toContain('by-key');
    // Everything else still works with the key.
    expect((await t.app.inject({ url: '/api/settings/theme', headers: h })).statusCode).toBe(200);
    expect((await me(t, h['x-api-key'])).json().username).toBe('api');
  });
});

describe('API key rotation reaches the other workers', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0).reverse()) await a.close();
  });

  it.runIf(process.env.TEST_CACHE_URL)('over Redis: the old key is refused on the other worker at once', async () => {
    const a = await makeTestApp({ cache: 'redis' });
    apps.push(a);
    const b = await makeTestApp({ shareWith: a });
    apps.push(b);
    const old = apiKeyOf(a);
    expect((await me(b, old)).statusCode).toBe(200);
    const value = (await rotate(a, await a.auth(), ADMIN_PASSWORD)).json().value as string;
    const ms = await eventually(async () => (await me(b, old)).statusCode === 401, 1000);
    expect(ms).toBeLessThan(500);
    expect((await me(b, value)).statusCode).toBe(200);
  });

  it('a worker that misses the announcement refuses the old key within a second', async () => {
    // Two in-process caches: nothing carries the change from one app to the other.
    const a = await makeTestApp();
    apps.push(a);
    const b = await makeTestApp({ shareWith: a });
    apps.push(b);
    const old = apiKeyOf(a);
    expect((await me(b, old)).statusCode).toBe(200);
    const value = (await rotate(a, await a.auth(), ADMIN_PASSWORD)).json().value as string;
    await eventually(async () => (await me(b, old)).statusCode === 401, 1500);
    expect((await me(b, value)).statusCode).toBe(200);
  });
});
