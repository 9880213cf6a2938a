/**
 * Nullable bare scalars reach the serializer as type lists: every value the schema accepts is
 * written to the same text as through the union, a value it refuses still fails the answer, and
 * the route's own schema is not changed.
 */
import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { nullableAsTypeList } from '../../src/http/response-schema.js';
import { Nullable } from '../../src/http/schemas.js';
import { installSerialization } from '../../src/http/validation.js';
import { ServerView } from '../../src/modules/servers/servers.schemas.js';
import { schemaSerializer as serializerOf } from '../helpers/schema-serializer.js';

const Row = Type.Object({
  s: Nullable(Type.String({ description: 'annotated' })),
  n: Nullable(Type.Number()),
  i: Nullable(Type.Integer()),
  b: Nullable(Type.Boolean()),
  when: Nullable(Type.String({ format: 'date-time' })),
  short: Nullable(Type.String({ maxLength: 3 })),
  state: Type.Union([Type.Literal('a'), Type.Literal('b')]),
  nested: Nullable(Type.Object({ x: Nullable(Type.String()) })),
  list: Type.Array(Nullable(Type.Integer())),
});

describe('nullableAsTypeList', () => {
  it('turns only bare nullable scalars into type lists, in a copy', () => {
    const before = JSON.stringify(Row);
    const out = nullableAsTypeList(Row) as unknown as { properties: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(Row)).toBe(before);
    const p = out.properties;
    expect(p.s).toEqual({ type: ['string', 'null'] });
    // The union refuses ±Infinity, which a type list would write as null: numbers stay unions.
    expect(p.n).toEqual(Row.properties.n);
    expect(p.i).toEqual({ type: ['integer', 'null'] });
    expect(p.b).toEqual({ type: ['boolean', 'null'] });
    // A format or a bound is written or checked by the serializer: left as a union.
    expect(p.when).toEqual(Row.properties.when);
    expect(p.short).toEqual(Row.properties.short);
    expect(p.state).toEqual(Row.properties.state);
    // Inside a union that stays, and inside arrays, the scalars are rewritten too.
    expect(JSON.stringify(p.nested)).toContain('"type":["string","null"]');
    expect(p.list.items).toEqual({ type: ['integer', 'null'] });
  });

  it('writes every accepted value to the same text as the union does', () => {
    const schema = Type.Object({ items: Type.Array(ServerView), row: Type.Array(Row) });
    const union = serializerOf(schema);
    const listed = serializerOf(nullableAsTypeList(schema));
    const server = (over: Record<string, unknown>) => ({
      id: 1, name: 'web-"1"', host: '10.0.0.1', port: 22, username: 'root', auth_type: 'key', ssh_key_preset_id: null,
      password_preset_id: 7, has_credentials: true, target_path: null, tags: ['a', 'ü\u2028'], host_key_fingerprint: null,
      status: 'online', last_heartbeat_at: '2026-01-01T00:00:00.000Z', ssh_status: 'never', ssh_last_ok_at: null,
      ssh_last_error_at: null, ssh_last_error: 'dns\n\u0001', ssh_failing_since: null, created_at: 'x', updated_at: 'y', ...over,
    });
    const rows = [
      { s: null, n: null, i: null, b: null, when: null, short: null, state: 'a', nested: null, list: [] },
      { s: 'é"\\\ud83d\ude00', n: -1.5e-7, i: 0, b: false, when: '2026-01-01T00:00:00.000Z', short: 'abc', state: 'b', nested: { x: null }, list: [1, null] },
      { s: '', n: 1e21, i: -42, b: true, when: null, short: '', state: 'a', nested: { x: 'q' }, list: [null] },
    ];
    const value = { items: [server({}), server({ id: 2, ssh_key_preset_id: 3, target_path: '/srv', ssh_status: 'failing' })], row: rows };
    expect(listed(value)).toBe(union(value));
    for (const bad of [Infinity, Number.NaN]) {
      const broken = { items: [], row: [{ ...rows[0], i: bad }] };
      expect(() => union(broken)).toThrow();
      expect(() => listed(broken)).toThrow();
    }
  });
});

describe('serialization with nullable scalars as type lists', () => {
  const app = Fastify();
  let answer: Record<string, unknown> = {};
  beforeAll(async () => {
    installSerialization(app);
    installErrorHandling(app);
    const Out = Type.Object({ name: Nullable(Type.String()), port: Nullable(Type.Integer()) });
    app.get('/z', { schema: { response: { 200: Out } } }, async () => answer);
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers the same JSON, without unlisted properties', async () => {
    answer = { name: 'a"b', port: null, secret: 'not in the schema' };
    const res = await app.inject('/z');
    expect(res.body).toBe('{"name":"a\\"b","port":null}');
  });

  it('a value of the wrong type still fails the answer', async () => {
    answer = { name: 5, port: 1 };
    expect((await app.inject('/z')).statusCode).toBe(500);
    answer = { name: 'a', port: 1.5 };
    expect((await app.inject('/z')).statusCode).toBe(500);
  });
});
