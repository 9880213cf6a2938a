/**
 * No input a column cannot hold reaches a database, on any route: for EVERY route of the OpenAPI
 * document, every integer field gets a value beyond its range (past 2^31 - 1 when it names no
 * maximum) and every string field a NUL character, one field at a time with the rest plausible.
 * Each answer is a 422 naming that field, never a 5xx, and SQLite and PostgreSQL answer alike.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { installInputGuard } from '../../src/http/input-guard.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds, type DbKind } from '../helpers/targets.js';
import { openApiDocument, routesOf } from '../helpers/openapi.js';
import { hostileCases, unboundedNumbers, type HostileCase } from './openapi-cases.js';

const doc = await openApiDocument();
const cases = hostileCases(doc, { key: 'heartbeat_timeout' });
/**
 * The one field where a large number is no schema failure: a setting's value is stored as text,
 * and each key's own rule (heartbeat_timeout: 10..600) refuses it with a 400.
 */
const NOT_A_SCHEMA_FAILURE: Record<string, number> = { 'PUT /api/settings/{key} body.value out-of-range': 400 };
/** Status per case name, per database: compared once every database has answered. */
const answers = new Map<DbKind, Map<string, number>>(dbKinds().map((db) => [db, new Map()]));

describe('the input guard alone', () => {
  const app = Fastify();
  beforeAll(async () => {
    installErrorHandling(app);
    installInputGuard(app);
    app.post('/free/:p', async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

  it.each([
    ['a nested string', '/free/x', { list: [{ name: 'ok' }, { name: 'a\u0000b' }] }, 'body.list.1.name'],
    ['a property name', '/free/x', { 'k\u0000': 1 }, 'body.k\\0'],
    ['a path parameter', '/free/a%00b', {}, 'params.p'],
    ['a query value', '/free/x?q=a%00b', {}, 'querystring.q'],
    ['a number beyond 2^53', '/free/x', { n: 2 ** 60 }, 'body.n'],
  ])('refuses NUL or a huge number in %s with a 422 naming it', async (_what, url, payload, field) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: field }] });
  });

  it('names the first bad field in the detail, path and message', async () => {
    const nested = await post('/free/x', { ok: [1, 'fine'], list: [{ name: 'ok' }, { deep: [[{ n: -(2 ** 60) }]] }], later: 'a\u0000b' });
    expect(nested.json()).toEqual({
      detail: 'Validation failed: body.list.1.deep.0.0.n must be a finite number within ±2^53',
      code: 'validation_failed',
      errors: [{ path: 'body.list.1.deep.0.0.n', message: 'must be a finite number within ±2^53' }],
    });
    const key = await post('/free/x', { a: { 'x\u0000y\u0000': 1 } });
    expect(key.json().errors).toEqual([{ path: 'body.a.x\\0y\\0', message: 'must not contain a NUL character' }]);
  });

  it('lets everything else through', async () => {
    const res = await post('/free/x?q=%C3%A9', { list: [{ name: 'a\\0b', n: 2 ** 31 }], t: true, z: null });
    expect(res.json()).toEqual({ ok: true });
  });
});

describe('the hostile cases cover the API', () => {
  it('every route with input has cases, the named ones included', () => {
    const routes = new Set(cases.map((c) => c.name.split(' ').slice(0, 2).join(' ')));
    for (const r of [
      'POST /api/auth/login', 'GET /api/servers/search', 'POST /api/servers/', 'POST /api/sync/browse', 'POST /api/sync/file-ops',
      'POST /api/sync/diagnose', 'POST /api/sync/file-diff', 'POST /api/sync/preview', 'GET /api/sync/batches/{batch_id}/events',
      'GET /api/sync/batches/{batch_id}', 'GET /api/audit/', 'DELETE /api/servers/{id}', 'POST /api/scripts/run',
    ]) expect(routes, r).toContain(r);
    const names = cases.map((c) => c.name);
    expect(names).toContain('POST /api/servers/ body.ssh_key_preset_id out-of-range');
    expect(names).toContain('GET /api/sync/batches/{batch_id}/events querystring.after out-of-range');
    expect(names).toContain('POST /api/auth/login body.username nul');
    expect(names).toContain('POST /api/sync/verify body.server_ids.0 out-of-range');
  });

  it('every integer a request carries names its maximum', () => {
    const unbounded: string[] = [];
    for (const r of routesOf(doc)) {
      const at = `${r.method.toLowerCase()} ${r.template}`;
      for (const p of r.params) unbounded.push(...unboundedNumbers(p.schema).map((f) => `${at} ${p.name}${f}`));
      if (r.body) unbounded.push(...unboundedNumbers(r.body).map((f) => `${at} body${f}`));
    }
    // A setting's value is stored as text and checked per key; the input guard bounds it to ±2^53.
    expect(unbounded).toEqual(['put /api/settings/{key} body.value']);
  });
});

describe.each(dbKinds())('hostile input on every route, %s', (db) => {
  let t: TestApp;
  let agentAuth: string;
  const seen = answers.get(db)!;
  beforeAll(async () => {
    t = await makeTestApp({ db, cache: db === 'postgres' && process.env.TEST_CACHE_URL ? 'redis' : 'memory' });
    const headers = await t.auth();
    const server = await t.app.inject({ method: 'POST', url: '/api/servers/', headers, payload: { name: 'agent-host', host: '192.0.2.1' } });
    const token = await t.app.inject({ method: 'POST', url: `/api/servers/${server.json().id}/agent-token`, headers });
    agentAuth = `Bearer ${token.json().agent_token}`;
  });
  afterAll(async () => t?.close());

  it.each(cases.map((c) => [c.name, c] as [string, HostileCase]))('%s', async (_name, c) => {
    // The heartbeat takes the agent's token; every other route an administrator's.
    const authorization = c.url.startsWith('/api/agent/heartbeat') ? agentAuth : (await t.auth()).authorization;
    const res = await t.app.inject({
      method: c.method as 'GET',
      url: c.url,
      headers: { authorization },
      ...(c.payload === undefined ? {} : { payload: c.payload as object }),
    });
    seen.set(c.name, res.statusCode);
    const expected = NOT_A_SCHEMA_FAILURE[c.name];
    if (expected) return void expect(res.statusCode, res.body).toBe(expected);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    // The bad field is named, and nothing but it (or a union around it) is at fault.
    const paths: string[] = body.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain(c.field);
    for (const p of paths) expect(c.field === p || c.field.startsWith(`${p}.`), `${p} in ${paths}`).toBe(true);
  });
});

/**
 * The two multipart routes read their fields from the stream (the document lists none): each
 * field that carries an id or a name gets the same hostile values by hand.
 */
const BOUNDARY = '----input-guard-boundary';
function multipart(fields: Array<[string, string]>, filename: string): Buffer {
  const parts = fields.map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n`);
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}
const MULTIPART_CASES: Array<[string, string, Buffer]> = [
  ['upload server_id out-of-range', '/api/sync/upload', multipart([['server_id', '2147483648']], 'a.txt')],
  ['upload server_id far out-of-range', '/api/sync/upload', multipart([['server_id', '999999999999999']], 'a.txt')],
  ['upload remote_path nul', '/api/sync/upload', multipart([['server_id', '999999'], ['remote_path', '/tmp/a\u0000b']], 'a.txt')],
  ['upload filename nul', '/api/sync/upload', multipart([['server_id', '999999']], 'a\u0000b.txt')],
  ['upload-zip filename nul', '/api/sync/upload-zip', multipart([], 'a\u0000b.zip')],
];

describe.each(dbKinds())('hostile multipart fields, %s', (db) => {
  let t: TestApp;
  const seen = answers.get(db)!;
  beforeAll(async () => {
    t = await makeTestApp({ db, cache: db === 'postgres' && process.env.TEST_CACHE_URL ? 'redis' : 'memory' });
  });
  afterAll(async () => t?.close());

  it.each(MULTIPART_CASES)('%s: a 400, never a 5xx', async (name, url, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload,
    });
    seen.set(`multipart ${name}`, res.statusCode);
    expect(res.statusCode, res.body).toBe(400);
  });
});

describe('the same answer on every database', () => {
  it.runIf(dbKinds().length > 1)('SQLite and PostgreSQL answer each hostile request with the same status', () => {
    const [a, b] = dbKinds().map((db) => answers.get(db)!);
    expect(a.size).toBe(cases.length + MULTIPART_CASES.length);
    expect(Object.fromEntries(b)).toEqual(Object.fromEntries(a));
  });
});
