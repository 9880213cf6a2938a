/**
 * Which real backends the suite runs on: SQLite and memory always; PostgreSQL when
 * TEST_DATABASE_URL is set and Redis when TEST_CACHE_URL is set (.ci/run sets both).
 * Each test app gets its own PostgreSQL database and its own Redis key prefix.
 */
import crypto from 'node:crypto';
import pg from 'pg';

export type DbKind = 'sqlite' | 'postgres';
export type CacheKind = 'memory' | 'redis';

export function dbKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function cacheKinds(): CacheKind[] {
  return process.env.TEST_CACHE_URL ? ['memory', 'redis'] : ['memory'];
}

export function uniqueSuffix(): string {
  return crypto.randomBytes(5).toString('hex');
}

export interface TempDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database named after the run's database, dropped afterwards. */
export async function createPostgresDatabase(): Promise<TempDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const u = new URL(base);
  const name = `${u.pathname.slice(1) || 'fleet'}_${uniqueSuffix()}`.replace(/[^a-z0-9_]/gi, '_').slice(0, 60);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
