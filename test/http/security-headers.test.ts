/**
 * Security headers on every answer: the short API set under /api/, helmet's full set with a
 * console-ready CSP everywhere else, Swagger UI's own policy, router errors as {detail}.
 */
import http from 'node:http';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_HELMET_OPTIONS,
  buildSecurityHeaders,
  buildSecurityHeaderSets,
  CONSOLE_CSP,
  FULL_HELMET_OPTIONS,
} from '../../src/http/security-headers.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';

/** What helmet sets on every answer outside /api/; each must be there, with one value, whatever the status. */
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

/**
 * Every answer under /api/, whatever its status, carries exactly these (the OWASP REST set): a
 * policy that lets nothing load or frame it, HSTS as the console's, nosniff, no framing, same-origin
 * resource policy, no referrer; and none of helmet's page-only headers.
 */
const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function securityHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(HEADER_NAMES.map((h) => [h, res.headers[h]]));
}

/** Every header of the full set the answer has, by name: an API answer has exactly API_HEADERS. */
function apiHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(HEADER_NAMES.filter((h) => res.headers[h] !== undefined).map((h) => [h, res.headers[h]]));
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
    for (const h of HEADER_NAMES) expect(res.headers[h], h).toEqual(expect.any(String));
  });

  it('an API answer carries the short API set: a policy allowing nothing, no page-only headers', async () => {
    const api = await t.app.inject({ url: '/api/servers', headers: await t.auth() });
    expect(api.statusCode).toBe(200);
    expect(apiHeaders(api)).toEqual(API_HEADERS);
    expect(String(api.headers['content-type'])).toContain('application/json');
    // Downloads under /api/ are not pages either: the CSV export and the agent's install script.
    const csv = await t.app.inject({ url: '/api/audit/export.csv', headers: await t.auth() });
    expect([csv.statusCode, String(csv.headers['content-type'])]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(apiHeaders(csv)).toEqual(API_HEADERS);
    const script = await t.app.inject({ url: '/api/agent/install.sh' });
    expect(script.statusCode).toBe(200);
    expect(apiHeaders(script)).toEqual(API_HEADERS);
    // Only the /api/ prefix picks the API set: a path that merely starts with "/api" does not.
    const lookalike = await t.app.inject({ url: '/apix', headers: { accept: 'application/json' } });
    expect(lookalike.statusCode).toBe(404);
    expect(securityHeaders(lookalike)).toEqual(securityHeaders(await t.app.inject({ url: '/health' })));
  });

  it('the live socket\'s upgrade path and the other non-API paths keep the full set', async () => {
    const full = securityHeaders(await t.app.inject({ url: '/health' }));
    // Without an upgrade the socket's route answers like any other: with the full set.
    const ws = await t.app.inject({ url: '/ws/alerts' });
    expect(securityHeaders(ws)).toEqual(full);
    // /docs too, with Swagger UI's own policy in place of the console's.
    const docs = await t.app.inject({ url: '/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(securityHeaders(docs)).toEqual({ ...full, 'content-security-policy': expect.stringContaining("script-src 'self'") });
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

  it('401, 403, 404, 413, 414, 422 and router errors under /api/ carry the API set', async () => {

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
      expect(apiHeaders(res), `${status} ${code}`).toEqual(API_HEADERS);
    }
  });

  it('a 404 and router errors outside /api/ carry the full set', async () => {
    const ok = await t.app.inject({ url: '/health' });
    expect(ok.statusCode).toBe(200);
    const expected = securityHeaders(ok);
    for (const h of HEADER_NAMES) expect(expected[h], h).toEqual(expect.any(String));
    const answers: Array<[number, string, () => Promise<LightMyRequestResponse>]> = [
      [404, 'route_not_found', () => t.app.inject({ url: '/no-such-page', headers: { accept: 'application/json' } })],
      [400, 'invalid_url', () => t.app.inject({ url: '/docs/%' })],
      [414, 'invalid_url', () => t.app.inject({ url: `/app/wallpapers/${'x'.repeat(200)}` })],
    ];
    for (const [status, code, send] of answers) {
      const res = await send();
      expect(res.statusCode, code).toBe(status);
      expect(res.json().code).toBe(code);
      expect(securityHeaders(res), `${status} ${code}`).toEqual(expected);
    }
  });

  it('the sets computed once at start are exactly what helmet sets on a response', () => {
    const fromHelmet = (options: Parameters<typeof helmet>[0]) => {
      const res = new http.ServerResponse(new http.IncomingMessage(new net.Socket()));
      let called = false;
      helmet(options)(res.req, res, () => (called = true));
      expect(called).toBe(true);
      return Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]));
    };
    const sets = buildSecurityHeaderSets();
    expect(FULL_HELMET_OPTIONS.contentSecurityPolicy.directives).toBe(CONSOLE_CSP);
    expect(sets.full).toEqual(fromHelmet(FULL_HELMET_OPTIONS));
    expect(sets.full).toEqual(buildSecurityHeaders());
    expect(Object.keys(sets.full).sort()).toEqual([...HEADER_NAMES].sort());
    expect(sets.api).toEqual(fromHelmet(API_HELMET_OPTIONS));
    expect(sets.api).toEqual(API_HEADERS);
    // The API answers' HSTS is the console's: one policy for the host.
    expect(sets.api['strict-transport-security']).toBe(sets.full['strict-transport-security']);
    expect(Object.isFrozen(sets)).toBe(true);
    expect(Object.isFrozen(sets.full)).toBe(true);
    expect(Object.isFrozen(sets.api)).toBe(true);
  });

  it('a 403 ip_blocked and a 429 carry the API set too', async () => {
    const limited = await makeTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' } });
    try {
      await limited.app.services.settings.set('login_manual_ips', '203.0.113.7');
      await limited.app.services.settings.set('login_allowlist_enabled', 'true');
      const login = () => limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
      const blocked = await login();
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().code).toBe('ip_blocked');
      expect(apiHeaders(blocked)).toEqual(API_HEADERS);
      await login();
      const tooMany = await login();
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json().code).toBe('rate_limited');
      expect(apiHeaders(tooMany)).toEqual(API_HEADERS);
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
