/**
 * Every route of the OpenAPI document, fuzzed with requests generated from its own schema and
 * mutated out of it (test/fuzz/schema-arbitraries.ts), on SQLite and PostgreSQL. No answer is a
 * 5xx (save a 502 for an upstream at the closed port), none carries a stack trace, SQL text or a
 * path of the service, none hangs; afterwards the database passes its integrity check, the
 * sentinel dir is unchanged and no command ran (the marker file never appears).
 *
 * Seeded: a failure prints FUZZ_SEED to replay; FUZZ_RUNS raises the requests per route.
 * Every server the fuzzer can address points at a closed loopback port, and every URL the
 * service might fetch does too, so no generated request reaches another machine.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, openApiDocument, routesOf, type Route } from '../helpers/openapi.js';
import { dbKinds } from '../helpers/targets.js';
import {
  checkAnswer, checkDatabase, FUZZ_RUNS, FUZZ_SEED, FuzzSession, makeFuzzApp, seedFor, snapshot, withReplayHint, withTimeout,
  type FuzzApp,
} from './fuzz-harness.js';
import { field, hostileStrings, type ArbitraryOptions } from './schema-arbitraries.js';

const routes = routesOf(await openApiDocument());

/**
 * Routes fuzzed but followed by a fresh login, because success ends the session the fuzzer
 * acts in. Nothing is excluded from fuzzing; the two multipart routes (no JSON schema in the
 * document) get their own generator below.
 */
const ENDS_SESSION = new Set(['POST /api/auth/logout', 'POST /api/auth/sign-out-others', 'POST /api/auth/change-password', 'DELETE /api/admins/{id}']);
const MULTIPART = ['POST /api/sync/upload', 'POST /api/sync/upload-zip'];

/** Raw path segments no encoder produces: broken and overlong escapes, encoded traversal. */
const RAW_SEGMENTS = ['%', '%zz', '%ff%fe', '%c0%ae%c0%ae', '%2e%2e', '%252e%252e', '..%2f..%2fetc', '%00', '%0a', '%e2%80%ae', '..\\..', '%5c..'];

/** Bodies nested 100 000 deep, as text: too deep for the test's own JSON.stringify, not for the service. */
const DEEP_ARRAY = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  auth: 'bearer' | 'api-key' | 'none';
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD; encodeURIComponent would throw). */
function encodeParam(v: unknown): string {
  const bytes = Buffer.from(typeof v === 'string' ? v : JSON.stringify(v) ?? '', 'utf8');
  return [...bytes].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

/**
 * A new server without a port would get 22: the fuzzer's servers must only ever point at the
 * closed port, so a body that names none gets it (the `port` override covers the rest).
 */
function closedPortDefault(r: Route, v: unknown, o: ArbitraryOptions & { closedPort?: number }): unknown {
  if (r.key !== 'POST /api/servers/' || !v || typeof v !== 'object' || Array.isArray(v) || 'port' in v) return v;
  return { ...v, port: o.closedPort };
}

function requestArb(r: Route, o: ArbitraryOptions & { closedPort?: number }, settingKeys: string[]): fc.Arbitrary<FuzzRequest> {
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  const queryArbs: Record<string, fc.Arbitrary<string[]>> = {};
  const headerArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of r.params) {
    if (p.in === 'path') {
      const own = p.name === 'key' ? fc.oneof(fc.constantFrom(...settingKeys), field(p.schema, o)) : field(p.schema, o);
      pathArbs[p.name] = fc.oneof({ weight: 6, arbitrary: own.map(encodeParam) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) });
    } else if (p.in === 'query') {
      queryArbs[p.name] = fc.option(fc.array(field(p.schema, o), { minLength: 1, maxLength: 2 }), { nil: [], freq: 3 }).map((vs) => vs.map(encodeParam));
    } else if (p.in === 'header') {
      headerArbs[p.name] = field(p.schema, o).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''));
    }
  }
  const body: fc.Arbitrary<string | undefined> = r.body
    ? fc.oneof(
        { weight: 12, arbitrary: field(r.body, o).map((v) => JSON.stringify(closedPortDefault(r, v, o))) },
        { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '\u0000', '{"a":1}{"b":2}', `{"x":"${'y'.repeat(2_000_000)}"}`, DEEP_ARRAY, DEEP_OBJECT) },
      )
    : fc.option(fc.constantFrom('{}', 'x', '{"a":1}'), { nil: undefined, freq: 6 });
  return fc
    .record({
      path: fc.record(pathArbs),
      query: fc.record(queryArbs),
      extraQuery: fc.option(fc.constantFrom('__proto__[x]=1', 'limit=1&limit=2', 'a%00=b', '%ff=1', 'constructor=1'), { freq: 5 }),
      headers: fc.record(headerArbs, { requiredKeys: [] }),
      payload: body,
      auth: fc.constantFrom<FuzzRequest['auth']>('bearer', 'bearer', 'bearer', 'api-key', 'none'),
    })
    .map(({ path, query, extraQuery, headers, payload, auth }) => {
      const qs = Object.entries(query).flatMap(([k, vs]) => vs.map((v) => `${k}=${v}`));
      if (extraQuery) qs.push(extraQuery);
      const url = fillPath(r.template, path) + (qs.length ? `?${qs.join('&')}` : '');
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) h[k] = v;
      if (payload !== undefined) h['content-type'] = 'application/json';
      return { method: r.method, url, headers: h, payload, auth };
    });
}

/** A multipart body whose fields and filename come from `fields`, for the two upload routes. */
function multipartArb(o: ArbitraryOptions, zip: boolean): fc.Arbitrary<{ payload: Buffer; boundary: string }> {
  const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...hostileStrings(o.marker)), fc.integer({ min: -3, max: 2 ** 33 }).map(String));
  return fc
    .record({
      server_id: fc.option(text, { nil: undefined }),
      remote_path: fc.option(text, { nil: undefined }),
      filename: text,
      data: fc.uint8Array({ maxLength: 300 }),
      zipHeader: fc.boolean(),
    })
    .map(({ server_id, remote_path, filename, data, zipHeader }) => {
      const boundary = '----fuzz-boundary';
      const parts: Buffer[] = [];
      const fieldPart = (k: string, v: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      if (server_id !== undefined) parts.push(fieldPart('server_id', server_id));
      if (remote_path !== undefined) parts.push(fieldPart('remote_path', remote_path));
      const name = filename.replace(/["\r\n]/g, '_');
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}${zip ? '.zip' : ''}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
      parts.push(zip && zipHeader ? Buffer.concat([Buffer.from('PK\u0003\u0004'), data]) : Buffer.from(data));
      parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
      return { payload: Buffer.concat(parts), boundary };
    });
}

describe('the fuzzer covers the API', () => {
  it('every route of the document is fuzzed (JSON or multipart), none silently skipped', () => {
    const keys = routes.map((r) => r.key);
    for (const m of MULTIPART) expect(keys).toContain(m);
    for (const e of ENDS_SESSION) expect(keys).toContain(e);
    expect(routes.length).toBeGreaterThan(100);
  });
});

describe.each(dbKinds())('fuzzing every route on %s', (db) => {
  let fa: FuzzApp;
  let session: FuzzSession;
  let o: ArbitraryOptions & { closedPort: number };
  let settingKeys: string[] = [];
  let sentinelBefore: Record<string, string>;
  let requests = 0;
  beforeAll(async () => {
    fa = await makeFuzzApp(db);
    session = new FuzzSession(fa.t);
    await session.renew();
    const h = { authorization: `Bearer ${session.token}` };
    // Servers (ids 1..3) and the things they refer to, all reachable only at the closed port.
    for (const i of [1, 2, 3]) {
      const res = await fa.t.app.inject({
        method: 'POST', url: '/api/servers/', headers: h, remoteAddress: session.ip,
        payload: { name: `fuzz-${i}`, host: '127.0.0.1', port: fa.port, username: 'nobody', password: 'x', tags: ['fuzz'] },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await fa.t.app.inject({ method: 'POST', url: '/api/scripts/', headers: h, remoteAddress: session.ip, payload: { name: 'fuzz', content: 'true' } });
    fs.mkdirSync(`${fa.stagingPrefix}fuzzdir/sub`, { recursive: true });
    fs.writeFileSync(`${fa.stagingPrefix}fuzzdir/sub/a.txt`, 'a');
    const schema = await fa.t.app.inject({ url: '/api/settings/schema', headers: h, remoteAddress: session.ip });
    settingKeys = JSON.stringify(schema.json()).match(/"key":"([a-z_]+)"/g)?.map((m) => m.slice(7, -1)) ?? ['system_name'];
    const dead = `http://127.0.0.1:${fa.port}`;
    const localPath = fc.oneof(
      fc.constantFrom(`${fa.stagingPrefix}fuzzdir`, `${fa.stagingPrefix}fuzzdir/sub`, `${fa.stagingPrefix}fuzzdir/sub/a.txt`, fa.sentinel, `${fa.sentinel}/keep.txt`),
      fc.constantFrom(...hostileStrings('/x')).map((s) => `${fa.stagingPrefix}fuzzdir/${s}`),
    );
    o = {
      marker: fa.marker,
      closedPort: fa.port,
      overrides: {
        // Only loopback (at the closed port) or names no resolver answers.
        host: fc.constantFrom('127.0.0.1', '::1', 'localhost', `-oProxyCommand=touch ${fa.marker}`, `$(touch ${fa.marker})`, 'a\nb', '', 'x'.repeat(300)),
        port: fc.constantFrom(fa.port, 0, -1, 65_536, 'x', null),
        url: fc.constantFrom(`${dead}/list`, 'file:///etc/passwd', 'gopher://127.0.0.1:1/', 'http://[::1]:1/', 'not a url', ''),
        subscription_url: fc.constantFrom(`${dead}/list`, 'file:///etc/passwd', 'http://169.254.169.254/', '', 'x'),
        api_base_url: fc.constantFrom(dead, `${dead}/$(touch ${fa.marker})`, "http://a'b", ''),
        path: localPath,
        source_path: localPath,
      },
    };
    sentinelBefore = snapshot(fa.sentinel);
  });
  afterAll(async () => {
    if (!fa) return;
    await fa.t.close();
    fs.rmSync(fa.root, { recursive: true, force: true });
  });

  async function send(req: FuzzRequest, bearer = session.token): Promise<import('fastify').LightMyRequestResponse> {
    const headers = { ...req.headers };
    if (req.auth === 'bearer') headers.authorization = `Bearer ${bearer}`;
    if (req.auth === 'api-key') headers['x-api-key'] = session.apiKey;
    requests++;
    return withTimeout(
      fa.t.app.inject({ method: req.method as 'GET', url: req.url, headers, remoteAddress: session.ip, ...(req.payload === undefined ? {} : { payload: req.payload }) }),
      `${req.method} ${req.url}`,
    );
  }

  /** Ids of servers that exist now (at the closed port), creating three when fewer are left. */
  async function liveServerIds(): Promise<number[]> {
    const h = { 'x-api-key': session.apiKey };
    const list = await fa.t.app.inject({ url: '/api/servers/', headers: h });
    const ids = (list.json() as Array<{ id: number; port: number }>).filter((x) => x.port === fa.port).map((x) => x.id);
    while (ids.length < 3) {
      const res = await fa.t.app.inject({
        method: 'POST', url: '/api/servers/', headers: h,
        payload: { name: `fuzz-live-${crypto.randomUUID().slice(0, 8)}`, host: '127.0.0.1', port: fa.port, username: 'nobody', password: 'x' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    return ids;
  }

  async function agentToken(serverId: number): Promise<string> {
    const res = await fa.t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/agent-token`, headers: { authorization: `Bearer ${session.token}` }, remoteAddress: session.ip });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().agent_token;
  }

  for (const r of routes.filter((x) => !MULTIPART.includes(x.key))) {
    it(r.key, async () => {
      // Earlier routes may have deleted the fixture servers: every route gets live ones to name.
      const ids = await liveServerIds();
      const own = { ...o, overrides: { ...o.overrides, server_id: fc.oneof(fc.constantFrom(...ids), fc.integer()), server_ids: fc.array(fc.constantFrom(...ids), { maxLength: 3 }) } };
      // The heartbeat takes the agent's token, not an administrator's.
      const bearer = r.key === 'POST /api/agent/heartbeat' ? await agentToken(ids[0]) : undefined;
      const prop = fc.asyncProperty(requestArb(r, own, settingKeys), async (req) => {
        const res = await send(req, bearer ?? session.token);
        checkAnswer(res, fa, `${req.method} ${req.url} ${(req.payload ?? '').slice(0, 300)}`);
        if (ENDS_SESSION.has(r.key) || res.statusCode === 401 || res.statusCode === 429) await session.ensure();
      });
      await fc.assert(prop, { seed: seedFor(`${db} ${r.key}`), numRuns: FUZZ_RUNS, endOnFailure: true }).catch((e) => {
        throw withReplayHint(e);
      });
    });
  }

  for (const key of MULTIPART) {
    it(`${key} (multipart)`, async () => {
      const url = key.split(' ')[1];
      const prop = fc.asyncProperty(multipartArb(o, url.endsWith('zip')), async ({ payload, boundary }) => {
        const res = await send({ method: 'POST', url, payload: payload as unknown as string, auth: 'bearer', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
        checkAnswer(res, fa, `${key} multipart ${payload.subarray(0, 300).toString('latin1')}`);
        if (res.statusCode === 401) await session.ensure();
      });
      await fc.assert(prop, { seed: seedFor(`${db} ${key}`), numRuns: FUZZ_RUNS, endOnFailure: true }).catch((e) => {
        throw withReplayHint(e);
      });
    });
  }

  it('afterwards: the database is consistent, nothing outside its area changed, no command ran', async () => {
    console.log(`fuzz ${db}: ${requests} requests, FUZZ_SEED=${FUZZ_SEED}, FUZZ_RUNS=${FUZZ_RUNS}`);
    await checkDatabase(fa, db);
    expect(snapshot(fa.sentinel)).toEqual(sentinelBefore);
    expect(fs.existsSync(fa.marker), `${fa.marker} exists: a command ran`).toBe(false);
    // No body's `__proto__` or `constructor` reached a shared prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
