import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('scripts'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('schedules'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('schedule_type', 'varchar(16)', (c) => c.notNull().defaultTo('push'))
    .addColumn('source_path', 'text')
    .addColumn('target_path', 'text')
    .addColumn('server_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('run_mode', 'varchar(16)', (c) => c.notNull().defaultTo('once'))
    .addColumn('cron_expr', 'varchar(200)')
    .addColumn('fire_at', 'text')
    .addColumn('sync_mode', 'varchar(16)', (c) => c.notNull().defaultTo('incremental'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('script_id', 'integer')
    .addColumn('script_content', 'text')
    .addColumn('exec_timeout', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('long_task', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('schedules').execute();
  await db.schema.dropTable('scripts').execute();
}
