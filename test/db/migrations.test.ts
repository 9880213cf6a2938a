import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, MigrationFailedError } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { dbKinds, type DbKind } from '../helpers/targets.js';
import { type Cleanup, freshDb as freshDbOf } from './fresh-db.js';

const cleanups: Cleanup[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

const freshDb = (kind: DbKind) => freshDbOf(kind, cleanups);

describe.each(dbKinds())('migrations on %s', (kind) => {
  it('apply every migration, in timestamp order, then again as a no-op, and roll back cleanly', async () => {
    const h = await freshDb(kind);
    const applied = await migrateToLatest(h.db);
    expect(applied).toEqual(Object.keys(migrations).sort());
    expect(await migrateToLatest(h.db)).toEqual([]);
    // Every table is usable: insert and read back a row with RETURNING.
    const row = await h.db
      .insertInto('admins')
      .values({ username: 'x', password_hash: 'h', created_at: new Date().toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: 'x', token_version: 0, totp_enabled: 0 });
    for (const name of Object.keys(migrations).sort().reverse()) {
      await migrations[name].down!(h.db);
    }
  });

  it('a failed migration stops with a clear message naming it', async () => {
    const h = await freshDb(kind);
    // A table the first migration wants to create already exists.
    await sql`CREATE TABLE admins (id integer)`.execute(h.db);
    const err = await migrateToLatest(h.db).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationFailedError);
    expect(String((err as Error).message)).toMatch(/20261122T0001-platform.*failed.*not started/s);
  });
});
