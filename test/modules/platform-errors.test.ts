import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** No response may carry a stack trace or SQL text, whatever the client sends. */
function assertSafe(body: string) {
  expect(body).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(body.toLowerCase()).not.toMatch(/select |insert into|sqlite|syntaxerror|stack/);
}

describe('error mapping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t?.close());

  it('unknown routes are 404 {detail, code}', async () => {
    const res = await t.app.inject({ url: '/api/definitely-not-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found: GET /api/definitely-not-here', code: 'route_not_found' });
  });

  it('malformed JSON is 400 {detail}', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "admin", "password": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'invalid_json' });
    assertSafe(res.body);
  });

  it('a wrong content type is 415 {detail}', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'username=admin',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'unsupported_media_type' });
  });

  it('schema failures are 422 {detail, errors[path,message]}', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin' } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.detail).toEqual(expect.any(String));
    expect(body.errors).toContainEqual({ path: 'body.password', message: expect.any(String) });
  });

  it('huge numbers and wrong types are 422, never 500', async () => {
    const h = await t.auth();
    const big = await t.app.inject({ url: '/api/audit?limit=1e400', headers: h });
    expect(big.statusCode).toBe(422);
    const huge = await t.app.inject({ url: '/api/audit?offset=99999999999999999999999', headers: h });
    expect(huge.statusCode).toBe(422);
    const typed = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 1e308, password: [] } });
    expect(typed.statusCode).toBe(422);
    assertSafe(big.body + huge.body + typed.body);
  });

  it('a JSON body is taken as sent: a wrong type is a 422, never a silent conversion', async () => {
    const h = await t.auth();
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/api/presets', { name: 123, encrypted_pw: 'x' }, 'body.name'],
      ['POST', '/api/sync/files', { server_ids: '1', source_path: '/tmp/svc_upload_x' }, 'body.server_ids'],
      ['POST', '/api/sync/files', { server_ids: ['1'], source_path: '/tmp/svc_upload_x' }, 'body.server_ids.0'],
      ['POST', '/api/settings/ip-allowlist/manual', { ips: '1.2.3.4' }, 'body.ips'],
      ['PUT', '/api/settings/system_name', { value: ['a'] }, 'body.value'],
    ];
    for (const [method, url, payload, path] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: h, payload });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(422);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await t.app.inject({ url: '/api/presets', headers: h })).json()).toEqual([]);
    // Query strings are text by nature and are still read as numbers.
    expect((await t.app.inject({ url: '/api/audit?limit=5&offset=0', headers: h })).statusCode).toBe(200);
  });

  it('deep nesting is refused cleanly', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"a","password":"b","x":${deep}}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'invalid_credentials' });
    assertSafe(res.body);
  });

  it('an oversize body is 413 {detail}', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'body_too_large' });
  });

  it('a bad path parameter is 422, not 500', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/admins/abc', headers: await t.auth() });
    expect(res.statusCode).toBe(422);
  });
});
