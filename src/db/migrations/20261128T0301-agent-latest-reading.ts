import { sql, type Kysely } from 'kysely';

/**
 * The newest reading of each server, beside its recent readings in `agent_heartbeats`: what the
 * monitoring list sorts by when it is ordered by CPU, memory, disk, load or drift. Finding each
 * server's newest row among the readings took an index probe per server (about 0.1 s for 10,000
 * servers on SQLite, a second with eight administrators on the page); this table is read whole.
 *
 * Rule: written only by the agent module's reading recorder, in the transaction that inserts the
 * readings: each server's newest reading of the batch, never replacing a newer one; pruned with
 * the readings (a server without a reading in the retention window has none here either).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agent_latest_reading')
    .addColumn('server_id', 'integer', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('cpu', 'double precision', (c) => c.notNull())
    .addColumn('mem', 'double precision', (c) => c.notNull())
    .addColumn('disk', 'double precision', (c) => c.notNull())
    .addColumn('load', 'double precision')
    .addColumn('drift_s', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'varchar(40)')
    .execute();
  // The readings already there: each server's last inserted one (readings arrive in time order).
  await sql`INSERT INTO agent_latest_reading (server_id, at, cpu, mem, disk, load, drift_s, version)
    SELECT server_id, at, cpu, mem, disk, load, drift_s, version FROM agent_heartbeats
    WHERE id IN (SELECT max(id) FROM agent_heartbeats GROUP BY server_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agent_latest_reading').ifExists().execute();
}
