/**
 * Exact alert counts without scanning a million rows: per Asia/Shanghai day (fixed +08:00, as in
 * `core/time.ts`) counters by type and by server, kept by database triggers so every writer (the
 * engine, a bulk import, a manual DELETE) keeps them right. Alert history answers `total` and
 * `/stats` from these plus, for partial edge days only, an index-only count of the log itself.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * On PostgreSQL every counter bump is an UPDATE of a row; leaving `n` out of the indexes and free
 * space in the pages (fillfactor) keeps those updates HOT, so the indexes do not bloat. SQLite
 * updates in place, so there `n` is included and the top-servers scan is index-only.
 */
async function createTables(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const fill = sql`with (fillfactor = 70)`;
  let types = db.schema
    .createTable('alert_daily_types')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('alert_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('is_recovery', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_daily_types_pk', ['day', 'alert_type', 'is_recovery']);
  if (pg) types = types.modifyEnd(fill);
  await types.execute();
  let servers = db.schema
    .createTable('alert_daily_servers')
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('is_recovery', 'integer', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_daily_servers_pk', ['server_id', 'is_recovery', 'day']);
  if (pg) servers = servers.modifyEnd(fill);
  await servers.execute();
  // Top servers of a window: day range first.
  await db.schema
    .createIndex('alert_daily_servers_day')
    .on('alert_daily_servers')
    .columns(pg ? ['is_recovery', 'day', 'server_id'] : ['is_recovery', 'day', 'server_id', 'n'])
    .execute();
  // Counts with a server and a type filter, and "newest row of a server+type" (active-set rebuild).
  await db.schema
    .createIndex('alert_log_server_type')
    .on('alert_log')
    .columns(['server_id', 'alert_type', 'is_recovery', 'created_at'])
    .execute();
  await db.schema
    .createIndex('alert_log_type_recovery')
    .on('alert_log')
    .columns(['alert_type', 'is_recovery', 'created_at'])
    .execute();
}

const SQLITE_DAY = (col: string) => sql.raw(`date(${col}, '+8 hours')`);

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = (rec: string, delta: string) => `
    INSERT INTO alert_daily_types (day, alert_type, is_recovery, n)
      VALUES (date(${rec}.created_at, '+8 hours'), ${rec}.alert_type, ${rec}.is_recovery, ${delta})
      ON CONFLICT (day, alert_type, is_recovery) DO UPDATE SET n = n + excluded.n;
    INSERT INTO alert_daily_servers (server_id, is_recovery, day, n)
      VALUES (${rec}.server_id, ${rec}.is_recovery, date(${rec}.created_at, '+8 hours'), ${delta})
      ON CONFLICT (server_id, is_recovery, day) DO UPDATE SET n = n + excluded.n;`;
  await sql.raw(`CREATE TRIGGER alert_log_counts_ins AFTER INSERT ON alert_log BEGIN ${bump('NEW', '1')} END`).execute(db);
  await sql.raw(`CREATE TRIGGER alert_log_counts_del AFTER DELETE ON alert_log BEGIN ${bump('OLD', '-1')} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER alert_log_counts_upd AFTER UPDATE OF server_id, alert_type, is_recovery, created_at ON alert_log
       BEGIN ${bump('OLD', '-1')} ${bump('NEW', '1')} END`,
    )
    .execute(db);
  await sql`INSERT INTO alert_daily_types (day, alert_type, is_recovery, n)
    SELECT ${SQLITE_DAY('created_at')}, alert_type, is_recovery, count(*) FROM alert_log GROUP BY 1, 2, 3`.execute(db);
  await sql`INSERT INTO alert_daily_servers (server_id, is_recovery, day, n)
    SELECT server_id, is_recovery, ${SQLITE_DAY('created_at')}, count(*) FROM alert_log GROUP BY 1, 2, 3`.execute(db);
}

const PG_DAY = `to_char((created_at::timestamptz AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;

/**
 * Statement-level triggers with transition tables: a 1,000-row INSERT costs one aggregated upsert
 * per table, not a thousand. Rows are upserted in key order so concurrent writers lock alike.
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const apply = (rows: string, sign: string) => `
    INSERT INTO alert_daily_types (day, alert_type, is_recovery, n)
      SELECT ${PG_DAY}, alert_type, is_recovery, ${sign}count(*) FROM ${rows} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (day, alert_type, is_recovery) DO UPDATE SET n = alert_daily_types.n + excluded.n;
    INSERT INTO alert_daily_servers (server_id, is_recovery, day, n)
      SELECT server_id, is_recovery, ${PG_DAY}, ${sign}count(*) FROM ${rows} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (server_id, is_recovery, day) DO UPDATE SET n = alert_daily_servers.n + excluded.n;`;
  await sql
    .raw(
      `CREATE FUNCTION alert_log_counts() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP IN ('DELETE', 'UPDATE') THEN ${apply('old_rows', '-')} END IF;
         IF TG_OP IN ('INSERT', 'UPDATE') THEN ${apply('new_rows', '')} END IF;
         RETURN NULL;
       END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER alert_log_counts_ins AFTER INSERT ON alert_log REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION alert_log_counts()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER alert_log_counts_del AFTER DELETE ON alert_log REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION alert_log_counts()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER alert_log_counts_upd AFTER UPDATE ON alert_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION alert_log_counts()`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO alert_daily_types (day, alert_type, is_recovery, n)
       SELECT ${PG_DAY}, alert_type, is_recovery, count(*) FROM alert_log GROUP BY 1, 2, 3`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO alert_daily_servers (server_id, is_recovery, day, n)
       SELECT server_id, is_recovery, ${PG_DAY}, count(*) FROM alert_log GROUP BY 1, 2, 3`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTables(db);
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['alert_log_counts_ins', 'alert_log_counts_del', 'alert_log_counts_upd']) {
    await sql.raw(isPostgres(db) ? `DROP TRIGGER IF EXISTS ${t} ON alert_log` : `DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS alert_log_counts()`.execute(db);
  await db.schema.dropIndex('alert_log_type_recovery').ifExists().execute();
  await db.schema.dropIndex('alert_log_server_type').ifExists().execute();
  await db.schema.dropTable('alert_daily_servers').ifExists().execute();
  await db.schema.dropTable('alert_daily_types').ifExists().execute();
}
