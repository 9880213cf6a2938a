/**
 * Online, consistent snapshots of the service's database while it keeps serving:
 * - SQLite: better-sqlite3's `backup()` (the SQLite online backup API) copying every page in one
 *   step, so the copy is one read transaction's view even while the service writes (WAL mode
 *   lets those writes go on meanwhile);
 * - PostgreSQL: `pg_dump --format=custom`, which dumps from one repeatable-read snapshot.
 * Restores go only into an empty target: a missing SQLite file, a database without tables.
 * A password in DATABASE_URL is handed to pg_dump/pg_restore in PGPASSWORD, never in argv
 * (where `ps` would show it).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { redactUrl, sqlitePath } from '../../db/database.js';

const run = promisify(execFile);

/** Copies the live SQLite database at `url` to `dest` and checks the copy. */
export async function snapshotSqlite(url: string, dest: string): Promise<void> {
  const source = sqlitePath(url);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All remaining pages per step: a step-by-step copy restarts whenever the service commits.
    await db.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the SQLite snapshot failed its integrity check: ${String(check)}`);
    // One self-contained file: no -wal beside it is needed to read the copy.
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  fs.chmodSync(dest, 0o600);
}

/** DATABASE_URL may point outside DATA_DIR: the SQLite file there must not exist yet either. */
export function assertNoSqliteFile(url: string): void {
  const target = sqlitePath(url);
  for (const f of [target, `${target}-wal`, `${target}-shm`]) {
    if (fs.existsSync(f)) throw new Error(`${f} already exists: restore only into an empty data directory / a new database file`);
  }
}

/** Puts the snapshot `file` where DATABASE_URL says the SQLite database lives (which must not exist yet). */
export function restoreSqlite(file: string, url: string): string {
  assertNoSqliteFile(url);
  const target = sqlitePath(url);
  fs.copyFileSync(file, target, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(target, 0o600);
  return target;
}

/** The URL without its password, and the environment that carries the password instead. */
function pgConnection(url: string): { dbUrl: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = '';
  // libpq only knows postgresql:// and postgres://; the service accepts both too.
  return { dbUrl: u.toString(), env };
}

async function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const { dbUrl, env } = pgConnection(url);
  try {
    await run(tool, [...args, `--dbname=${dbUrl}`], { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error(`${tool} was not found: install the PostgreSQL client tools (apt-get install postgresql-client), the same major version as the server or newer`);
    throw new Error(`${tool} failed for ${redactUrl(url)}: ${(e.stderr ?? e.message).trim().slice(0, 500)}`);
  }
}

export async function snapshotPostgres(url: string, dest: string): Promise<void> {
  await pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dest}`], url);
  fs.chmodSync(dest, 0o600);
}

/** Tables outside the system schemas: a database with any is not empty. */
async function userTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>(
      "select count(*) as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

export async function assertEmptyPostgres(url: string): Promise<void> {
  const n = await userTableCount(url);
  if (n > 0) {
    throw new Error(`the database ${redactUrl(url)} is not empty (${n} tables): restore only into a new, empty database (CREATE DATABASE …)`);
  }
}

/** Restores in one transaction: a failure leaves the database as empty as it was. */
export async function restorePostgres(file: string, url: string): Promise<void> {
  await pgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', file], url);
}
