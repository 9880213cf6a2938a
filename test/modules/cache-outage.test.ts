/** A dead Redis degrades the service (logged, retried); it never stops it from starting or serving. */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('cache outage', () => {
  it('starts, reports cache error on /health, and still logs admins in', async () => {
    const port = await deadPort();
    t = await makeTestApp({ env: { CACHE_URL: `redis://127.0.0.1:${port}` } });
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', db: 'ok', cache: 'error' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${login.json().access_token}` } });
    expect(me.statusCode).toBe(200);
  });
});
