/** Security headers on every answer, a console-ready CSP, Swagger UI's own policy, router errors as {detail}. */
import http from 'node:http';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecurityHeaders, CONSOLE_CSP } from '../../src/http/security-headers.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';

/** What helmet sets on every answer; each must be there, with one value, whatever the status. */
const HEADER_NAMES = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

function securityHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(HEADER_NAMES.map((h) => [h, res.headers[h]]));
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t?.close());

  it('sets a CSP without inline scripts, no framing, nosniff, and no worker pid', async () => {
    const res = await t.app.inject({ url: '/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers).not.toHaveProperty('x-worker-pid');
    expect(res.headers).not.toHaveProperty('x-powered-by');
    const api = await t.app.inject({ url: '/api/servers', headers: await t.auth() });
    expect(api.headers['content-security-policy']).toBe(csp);
  });

  it('keeps Swagger UI working under its own policy', async () => {
    const page = await t.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // Its bootstrap is an external script, which script-src 'self' admits.
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect((await t.app.inject({ url: '/docs/static/swagger-initializer.js' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/docs/json' })).statusCode).toBe(200);
  });

  it('401, 403, 404, 413, 414, 422 and router errors carry the same headers as a 200', async () => {
    const ok = await t.app.inject({ url: '/health' });
    expect(ok.statusCode).toBe(200);
    const expected = securityHeaders(ok);
    for (const h of HEADER_NAMES) expect(expected[h], h).toEqual(expect.any(String));

    const apiKey = (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: await t.auth() })).json().value as string;
    const answers: Array<[number, string, () => Promise<LightMyRequestResponse>]> = [
      [200, 'authenticated', async () => t.app.inject({ url: '/api/servers', headers: await t.auth() })],
      [401, 'unauthorized', () => t.app.inject({ url: '/api/servers' })],
      [401, 'api_key_invalid', () => t.app.inject({ url: '/api/servers', headers: { 'x-api-key': 'not-the-key' } })],
      [403, 'api_key_refused', () => t.app.inject({ url: '/api/admins', headers: { 'x-api-key': apiKey } })],
      [404, 'route_not_found', async () => t.app.inject({ url: '/api/no-such-route', headers: await t.auth() })],
      [404, 'server_not_found', async () => t.app.inject({ url: '/api/servers/999999', headers: await t.auth() })],
      [413, 'body_too_large', async () =>
        t.app.inject({ method: 'POST', url: '/api/servers', headers: { ...(await t.auth()), 'content-type': 'application/json' }, payload: `{"name":"${'x'.repeat(1100 * 1024)}"}` })],
      [422, 'validation_failed', async () => t.app.inject({ method: 'POST', url: '/api/servers', headers: await t.auth(), payload: { name: 5 } })],
      [414, 'invalid_url', async () => t.app.inject({ url: `/api/servers/${'x'.repeat(200)}`, headers: await t.auth() })],
      [400, 'invalid_url', () => t.app.inject({ url: '/api/%' })],
    ];
    for (const [status, code, send] of answers) {
      const res = await send();
      expect(res.statusCode, code).toBe(status);
      if (status !== 200) expect(res.json().code).toBe(code);
      expect(securityHeaders(res), `${status} ${code}`).toEqual(expected);
    }
  });

  it('the set computed once at start is exactly what helmet sets on a response', () => {
    const res = new http.ServerResponse(new http.IncomingMessage(new net.Socket()));
    let called = false;
    helmet({ contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP }, crossOriginEmbedderPolicy: false })(
      res.req,
      res,
      () => (called = true),
    );
    expect(called).toBe(true);
    const fromHelmet = Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]));
    const built = buildSecurityHeaders();
    expect(built).toEqual(fromHelmet);
    expect(Object.keys(built).sort()).toEqual([...HEADER_NAMES].sort());
    expect(Object.isFrozen(built)).toBe(true);
  });

  it('a 403 ip_blocked and a 429 carry them too', async () => {
    const limited = await makeTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' } });
    try {
      const expected = securityHeaders(await limited.app.inject({ url: '/health' }));
      await limited.app.services.settings.set('login_manual_ips', '203.0.113.7');
      await limited.app.services.settings.set('login_allowlist_enabled', 'true');
      const login = () => limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
      const blocked = await login();
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().code).toBe('ip_blocked');
      expect(securityHeaders(blocked)).toEqual(expected);
      await login();
      const tooMany = await login();
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json().code).toBe('rate_limited');
      expect(securityHeaders(tooMany)).toEqual(expected);
    } finally {
      await limited.close();
    }
  });

  it.each([
    [`/api/servers/${'x'.repeat(200)}`, 414, 'A path segment is too long'],
    ['/api/%', 400, 'The URL is not valid'],
    ['/api/servers/%E0%A4%A', 400, 'The URL is not valid'],
  ])('router error %s is %i {detail}', async (url, status, detail) => {
    const res = await t.app.inject({ url, headers: await t.auth() });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ detail, code: 'invalid_url' });
  });
});
