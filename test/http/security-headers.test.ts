/** Security headers on every answer, a console-ready CSP, Swagger UI's own policy, router errors as {detail}. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

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
