import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Foreign keys with ON DELETE rules where rows refer to presets and push batches:
 *
 * - a server's preset ids → SET NULL: a deleted preset leaves its servers on their inline
 *   credentials (or none), which is what deleting a preset always did;
 * - a batch's results and live messages → CASCADE: they mean nothing without their batch;
 * - a retry job's batch → SET NULL: the job is its own record.
 *
 * Deliberately without a key: rows that refer to a server but outlive it — push results, retry
 * jobs, the alert log, the audit log keep their `server_id` and the server's name as history —
 * and target claims, which live one lease and may name a server deleted in the meantime; and a
 * schedule run's batch, which the run records when it fires, before the batch row exists (so that
 * a run interrupted by a crash still names its batch).
 *
 * Existing orphans are cleaned first (deleted for CASCADE, nulled for SET NULL), so the keys can
 * be added to any real database. SQLite cannot add a constraint to a table: each table is rebuilt
 * the documented way (new table, copy, drop, rename, indexes again), keeping its AUTOINCREMENT
 * counter so ids of deleted rows are never handed out again.
 */
export interface ForeignKey {
  table: string;
  column: string;
  references: string;
  refColumn: string;
  onDelete: 'cascade' | 'set null';
}

export const FOREIGN_KEYS: ForeignKey[] = [
  { table: 'servers', column: 'password_preset_id', references: 'password_presets', refColumn: 'id', onDelete: 'set null' },
  { table: 'servers', column: 'ssh_key_preset_id', references: 'ssh_key_presets', refColumn: 'id', onDelete: 'set null' },
  { table: 'push_results', column: 'batch_id', references: 'push_batches', refColumn: 'batch_id', onDelete: 'cascade' },
  { table: 'push_events', column: 'batch_id', references: 'push_batches', refColumn: 'batch_id', onDelete: 'cascade' },
  { table: 'retry_jobs', column: 'batch_id', references: 'push_batches', refColumn: 'batch_id', onDelete: 'set null' },
];

const constraintName = (k: ForeignKey) => `${k.table}_${k.column}_fk`;

async function cleanOrphans(db: Kysely<unknown>, k: ForeignKey): Promise<void> {
  const orphan = sql`${sql.ref(k.column)} is not null and not exists (select 1 from ${sql.table(k.references)} p where p.${sql.ref(k.refColumn)} = ${sql.table(k.table)}.${sql.ref(k.column)})`;
  if (k.onDelete === 'cascade') await sql`delete from ${sql.table(k.table)} where ${orphan}`.execute(db);
  else await sql`update ${sql.table(k.table)} set ${sql.ref(k.column)} = null where ${orphan}`.execute(db);
}

function clause(k: ForeignKey): string {
  return `, FOREIGN KEY ("${k.column}") REFERENCES "${k.references}" ("${k.refColumn}") ON DELETE ${k.onDelete.toUpperCase()}`;
}

/** Rebuilds an SQLite table with its create statement rewritten by `rewrite`; data, indexes and counter kept. */
async function rebuildSqliteTable(db: Kysely<unknown>, table: string, rewrite: (createSql: string) => string): Promise<void> {
  const master = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const create = master.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`table ${table} not found`);
  const indexes = master.rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql as string);
  const temp = `${table}__rebuild`;
  const renamed = create.replace(/^create table\s+("?)([A-Za-z_]+)\1/i, `CREATE TABLE "${temp}"`);
  if (renamed === create) throw new Error(`unexpected create statement for ${table}`);
  const hasSequence = (await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_sequence'`.execute(db)).rows[0].n > 0;
  const seq = hasSequence ? (await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db)).rows[0]?.seq : undefined;
  await sql.raw(rewrite(renamed)).execute(db);
  await sql`insert into ${sql.table(temp)} select * from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(temp)} rename to ${sql.table(table)}`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
  if (seq !== undefined) await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = ${table}`.execute(db);
}

const tables = () => [...new Set(FOREIGN_KEYS.map((k) => k.table))];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const k of FOREIGN_KEYS) await cleanOrphans(db, k);
  if (isPostgres(db)) {
    for (const k of FOREIGN_KEYS) {
      await db.schema
        .alterTable(k.table)
        .addForeignKeyConstraint(constraintName(k), [k.column], k.references, [k.refColumn], (c) => c.onDelete(k.onDelete))
        .execute();
    }
    return;
  }
  for (const table of tables()) {
    const keys = FOREIGN_KEYS.filter((k) => k.table === table);
    await rebuildSqliteTable(db, table, (create) => create.replace(/\)\s*$/, `${keys.map(clause).join('')})`));
  }
  const broken = await sql`pragma foreign_key_check`.execute(db);
  if (broken.rows.length > 0) throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(broken.rows.slice(0, 5))}`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const k of FOREIGN_KEYS) await db.schema.alterTable(k.table).dropConstraint(constraintName(k)).execute();
    return;
  }
  for (const table of tables()) {
    const keys = FOREIGN_KEYS.filter((k) => k.table === table);
    await rebuildSqliteTable(db, table, (create) => keys.reduce((s, k) => s.replace(clause(k), ''), create));
  }
}
