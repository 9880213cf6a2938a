/**
 * The last line of defence: a value the database itself refuses (out of range, a NUL byte, text
 * that is no number, a datatype mismatch) is a 400 `value_out_of_range` naming neither the SQL
 * nor the value, on each database — real errors from the real databases, not made-up codes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValueRejected } from '../../src/db/errors.js';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds, type DbKind } from '../helpers/targets.js';

/** Per database: queries whose values the database refuses (the ones the other one accepts are no error there). */
const REFUSED: Record<DbKind, Record<string, RawBuilder<unknown>>> = {
  postgres: {
    'an integer beyond 2^31 - 1 (22003)': sql`select id from servers where id = ${2 ** 40}`,
    'a NUL byte in text (22021)': sql`select id from servers where name = ${'a\u0000b'}`,
    'text that is no integer (22P02)': sql`select id from servers where id = ${'abc'}`,
  },
  sqlite: {
    'text into an integer primary key (SQLITE_MISMATCH)': sql`insert into servers (id) values (${'abc'})`,
  },
};

describe.each(dbKinds())('database value errors on %s', (db) => {
  let t: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await makeTestApp({ db });
    app = Fastify();
    installErrorHandling(app);
    app.get<{ Params: { name: string } }>('/q/:name', async (req) => {
      await REFUSED[db][req.params.name].execute(t.app.services.db);
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it.each(Object.keys(REFUSED[db]))('%s is a 400 value_out_of_range without the SQL', async (name) => {
    const res = await app.inject({ url: `/q/${encodeURIComponent(name)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'value_out_of_range', detail: 'A value in the request cannot be stored or looked up' });
  });

  it('an error that is no value error stays a 500', async () => {
    const err = await sql`select nope from servers`.execute(t.app.services.db).catch((e: unknown) => e);
    expect(isValueRejected(err)).toBe(false);
    expect(isValueRejected(null)).toBe(false);
    expect(isValueRejected({ code: 'SQLITE_TOOBIG' })).toBe(true);
  });
});
