import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The agent's recent readings, one row per heartbeat, for the monitoring page's last values and
 * sparklines. Written only by the agent module, in batches; rows older than the retention window
 * (one hour, see heartbeat-points.ts) are deleted, so the table stays small whatever the fleet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('agent_heartbeats'))
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('cpu', 'double precision', (c) => c.notNull())
    .addColumn('mem', 'double precision', (c) => c.notNull())
    .addColumn('disk', 'double precision', (c) => c.notNull())
    .addColumn('load', 'double precision')
    .addColumn('drift_s', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'varchar(40)')
    .execute();
  // The newest points of each server, and the pruning of old ones.
  await db.schema.createIndex('agent_heartbeats_server').on('agent_heartbeats').columns(['server_id', 'at']).execute();
  await db.schema.createIndex('agent_heartbeats_at').on('agent_heartbeats').columns(['at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agent_heartbeats').execute();
}
