import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('alert_log'))
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('server_name', 'varchar(100)')
    .addColumn('alert_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('is_recovery', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Newest-first pagination with each filter, and stats by day/type/server.
  await db.schema.createIndex('alert_log_created').on('alert_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('alert_log_server').on('alert_log').columns(['server_id', 'created_at']).execute();
  await db.schema.createIndex('alert_log_type').on('alert_log').columns(['alert_type', 'created_at']).execute();
  await db.schema
    .createIndex('alert_log_recovery')
    .on('alert_log')
    .columns(['is_recovery', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alert_log').execute();
}
