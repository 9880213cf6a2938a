/**
 * The Kysely factory for both dialects: `sqlite://PATH` (embedded default, better-sqlite3)
 * and `postgres://…` (pg pool sized by db_pool_size + db_max_overflow).
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import { redactUrl } from '../core/redact-url.js';
import { requireOnUse } from '../core/require-on-use.js';
import type { Database } from './types.js';

// Here too for its earlier importers; it lives in core so the cluster primary can use it alone.
export { redactUrl };

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

export interface PoolOptions {
  poolSize?: number;
  maxOverflow?: number;
}

export function dialectOf(url: string): Dialect {
  if (url.startsWith('sqlite://') || url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error(`Unsupported DATABASE_URL scheme: ${redactUrl(url)} (use sqlite://PATH or postgres://…)`);
}

/** `sqlite:///abs/path`, `sqlite://./rel/path` and `sqlite::memory:` are accepted. */
export function sqlitePath(url: string): string {
  const rest = url.replace(/^sqlite:(\/\/)?/, '');
  return rest === ':memory:' || rest === '' ? ':memory:' : rest;
}

// int8 (COUNT, SUM, BIGINT columns) arrives as a string from pg; our values fit in a double.
function pgTypes(pgModule: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20 || oid === 1700) return (v: string) => (v === null ? null : Number(v));
      return pgModule.types.getTypeParser(oid, format as 'text');
    },
  } as unknown as pg.CustomTypesConfig;
}

/**
 * The database holds hashes, encrypted secrets and the audit log: 0600 for its file, and for
 * its -wal and -shm files, which SQLite creates with the database file's own permissions.
 */
function privateDatabaseFile(file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(f, 0o600);
    } catch {
      // -wal and -shm exist only while (or after) the database is open
    }
  }
}

export function createDatabase(url: string, opts: PoolOptions = {}): DatabaseHandle {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite') {
    const file = sqlitePath(url);
    if (file !== ':memory:') privateDatabaseFile(file);
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect, destroy: () => db.destroy() };
  }
  // Loaded here, not at the top: the embedded default never pays for the PostgreSQL client.
  const pgModule = requireOnUse('pg') as typeof pg;
  const max = Math.max(1, (opts.poolSize ?? 10) + (opts.maxOverflow ?? 20));
  const pool = new pgModule.Pool({ connectionString: url, max, types: pgTypes(pgModule), idleTimeoutMillis: 30_000 });
  // A dropped connection must not crash the process; the next query reports the failure. The
  // pool listens for errors of idle clients only: a client checked out when its connection drops
  // (between two statements of a transaction, or before its release) emits 'error' with no
  // listener, an uncaught exception that would end the service on every PostgreSQL restart. Its
  // query, if any, is rejected with the same error, so the listener has nothing left to do.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect, destroy: () => db.destroy() };
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small indexed query
 * (about half of an authenticated request). Statements are reused by SQL text, LRU-bounded; a
 * statement still busy (an open iterator) is never shared.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      const hit = cache.get(sqlText);
      if (hit && !hit.busy) {
        cache.delete(sqlText);
        cache.set(sqlText, hit);
        return hit;
      }
      const stmt = sqlite.prepare(sqlText);
      if (!hit) {
        cache.set(sqlText, stmt);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return stmt;
    },
  };
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
