/**
 * The newest log row of each server and alert type, kept by database triggers (as the daily
 * counters of 20261122T0008 are): the active alerts are the pairs whose newest row is not a
 * recovery. Finding them in the log itself grouped the whole log (a million rows: 0.2 s on
 * SQLite, 0.4 s on PostgreSQL, several seconds with the dashboards of 8 administrators open) on
 * every dashboard and active-alerts read. With this table they are an index range.
 *
 * Rule: `alert_latest` holds, for every (server_id, alert_type) present in the log, the id and
 * recovery flag of its row with the highest id. Every writer keeps it (the engine, a bulk import,
 * a retention DELETE, a manual UPDATE): an insert moves a pair's row forward only (a higher id
 * wins, whatever the order concurrent writers commit in); a delete or update of a pair's newest
 * row recomputes that pair from the log.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

async function createTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_latest')
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('alert_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('log_id', 'integer', (c) => c.notNull())
    .addColumn('is_recovery', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_latest_pk', ['server_id', 'alert_type'])
    .execute();
  // The open pairs, newest first: the dashboard's "10 newest active alerts" reads ten entries.
  await db.schema.createIndex('alert_latest_open').on('alert_latest').columns(['is_recovery', 'log_id']).execute();
  await sql`INSERT INTO alert_latest (server_id, alert_type, log_id, is_recovery)
    SELECT server_id, alert_type, id, is_recovery FROM alert_log
    WHERE id IN (SELECT max(id) FROM alert_log GROUP BY server_id, alert_type)`.execute(db);
}

/** Row-level triggers: SQLite has one writer at a time, so a check-then-insert cannot race. */
async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const forward = (rec: string) => `
    INSERT INTO alert_latest (server_id, alert_type, log_id, is_recovery)
      VALUES (${rec}.server_id, ${rec}.alert_type, ${rec}.id, ${rec}.is_recovery)
      ON CONFLICT (server_id, alert_type) DO UPDATE SET log_id = excluded.log_id, is_recovery = excluded.is_recovery
      WHERE excluded.log_id > alert_latest.log_id;`;
  // Only when the row was its pair's newest does the pair need the log again.
  const recompute = (rec: string) => `
    DELETE FROM alert_latest WHERE server_id = ${rec}.server_id AND alert_type = ${rec}.alert_type AND log_id = ${rec}.id;
    INSERT INTO alert_latest (server_id, alert_type, log_id, is_recovery)
      SELECT server_id, alert_type, id, is_recovery FROM alert_log
      WHERE server_id = ${rec}.server_id AND alert_type = ${rec}.alert_type
        AND NOT EXISTS (SELECT 1 FROM alert_latest WHERE server_id = ${rec}.server_id AND alert_type = ${rec}.alert_type)
      ORDER BY id DESC LIMIT 1;`;
  await sql.raw(`CREATE TRIGGER alert_log_latest_ins AFTER INSERT ON alert_log BEGIN ${forward('NEW')} END`).execute(db);
  await sql.raw(`CREATE TRIGGER alert_log_latest_del AFTER DELETE ON alert_log BEGIN ${recompute('OLD')} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER alert_log_latest_upd AFTER UPDATE OF server_id, alert_type, is_recovery ON alert_log BEGIN ${recompute('OLD')} ${forward('NEW')} END`)
    .execute(db);
}

/**
 * Statement-level triggers with transition tables, like the counters': a bulk insert is one
 * upsert of each pair's highest id; a bulk delete recomputes only the pairs it left without a row.
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const upsert = `ON CONFLICT (server_id, alert_type) DO UPDATE SET log_id = excluded.log_id, is_recovery = excluded.is_recovery
    WHERE excluded.log_id > alert_latest.log_id`;
  await sql
    .raw(
      `CREATE FUNCTION alert_log_latest() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP IN ('DELETE', 'UPDATE') THEN
           DELETE FROM alert_latest l USING old_rows o
             WHERE l.server_id = o.server_id AND l.alert_type = o.alert_type AND l.log_id = o.id;
           INSERT INTO alert_latest (server_id, alert_type, log_id, is_recovery)
             SELECT DISTINCT ON (a.server_id, a.alert_type) a.server_id, a.alert_type, a.id, a.is_recovery
             FROM alert_log a
             JOIN (SELECT DISTINCT o.server_id, o.alert_type FROM old_rows o
                   WHERE NOT EXISTS (SELECT 1 FROM alert_latest l WHERE l.server_id = o.server_id AND l.alert_type = o.alert_type)) p
               ON a.server_id = p.server_id AND a.alert_type = p.alert_type
             ORDER BY a.server_id, a.alert_type, a.id DESC
             ${upsert};
         END IF;
         IF TG_OP IN ('INSERT', 'UPDATE') THEN
           INSERT INTO alert_latest (server_id, alert_type, log_id, is_recovery)
             SELECT DISTINCT ON (server_id, alert_type) server_id, alert_type, id, is_recovery FROM new_rows
             ORDER BY server_id, alert_type, id DESC
             ${upsert};
         END IF;
         RETURN NULL;
       END $$`,
    )
    .execute(db);
  const events: Array<[string, string]> = [
    ['ins', 'INSERT ON alert_log REFERENCING NEW TABLE AS new_rows'],
    ['del', 'DELETE ON alert_log REFERENCING OLD TABLE AS old_rows'],
    ['upd', 'UPDATE ON alert_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
  ];
  for (const [name, event] of events) {
    await sql.raw(`CREATE TRIGGER alert_log_latest_${name} AFTER ${event} FOR EACH STATEMENT EXECUTE FUNCTION alert_log_latest()`).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db);
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['alert_log_latest_ins', 'alert_log_latest_del', 'alert_log_latest_upd']) {
    await sql.raw(isPostgres(db) ? `DROP TRIGGER IF EXISTS ${t} ON alert_log` : `DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS alert_log_latest()`.execute(db);
  await db.schema.dropTable('alert_latest').ifExists().execute();
}
