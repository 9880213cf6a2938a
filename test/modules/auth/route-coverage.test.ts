/**
 * Walks the registered route table: every non-public route answers 401 without a token, with a
 * garbage token, and with a token of an older token_version (after a password change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { connectWs } from '../../helpers/ws.js';

const PUBLIC = new Set([
  'GET /health',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'GET /api/auth/first-run',
  'GET /api/settings/daily-wallpapers',
  'GET /api/settings/daily-wallpaper',
  'GET /api/agent/install.sh',
  'POST /api/agent/heartbeat',
  'GET /app/wallpapers/:file',
  'GET /ws/alerts',
]);

function concrete(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => (/id$/i.test(name) ? '1' : 'x')).replace(/\*$/, 'x');
}

describe('authentication covers every route', () => {
  let t: TestApp;
  let oldToken: string;
  beforeAll(async () => {
    t = await makeTestApp();
    oldToken = await t.token();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${oldToken}` },
      payload: { current_password: ADMIN_PASSWORD, new_password: 'a-brand-new-password' },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('lists the routes and marks only the documented ones public', () => {
    const publicRoutes = t.app.routeTable.filter((r) => r.public && !r.url.startsWith('/docs') && r.method !== 'HEAD');
    for (const r of publicRoutes) expect(PUBLIC.has(`${r.method} ${r.url}`), `${r.method} ${r.url}`).toBe(true);
    expect(t.app.routeTable.length).toBeGreaterThan(8);
  });

  it('every non-public route is 401 without a token, with a bad one and with a revoked one', async () => {
    const routes = t.app.routeTable.filter((r) => !r.public && r.method !== 'HEAD' && r.method !== 'OPTIONS');
    for (const r of routes) {
      const url = concrete(r.url);
      const method = r.method as 'GET';
      for (const [headers, code] of [
        [{}, 'unauthorized'],
        [{ authorization: 'Bearer not-a-jwt' }, 'token_invalid'],
        [{ authorization: `Bearer ${oldToken}` }, 'token_invalid'],
        [{ 'x-api-key': 'wrong-key' }, 'api_key_invalid'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${r.method} ${r.url} with ${JSON.stringify(Object.keys(headers))}`).toBe(401);
        expect(res.json()).toEqual({ detail: expect.any(String), code });
      }
    }
  });

  it('the live socket refuses a revoked token with close code 4401', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    expect(await connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=${oldToken}`).closed).toBe(4401);
    expect(await connectWs(`ws://127.0.0.1:${port}/ws/alerts`).closed).toBe(4401);
  });
});
