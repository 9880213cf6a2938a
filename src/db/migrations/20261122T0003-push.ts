import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_batches')
    .addColumn('batch_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('operator', 'varchar(100)')
    .addColumn('source_path', 'text', (c) => c.notNull())
    .addColumn('target_path', 'text')
    .addColumn('sync_mode', 'varchar(16)', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('push_batches_started').on('push_batches').column('started_at').execute();

  await withId(db, db.schema.createTable('push_results'))
    .addColumn('batch_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('server_name', 'varchar(100)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('files_transferred', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_transferred', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('retry_job_id', 'integer')
    .addUniqueConstraint('push_results_batch_server', ['batch_id', 'server_id'])
    .execute();

  await withId(db, db.schema.createTable('retry_jobs'))
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('server_name', 'varchar(100)')
    .addColumn('operator', 'varchar(100)')
    .addColumn('source_path', 'text', (c) => c.notNull())
    .addColumn('target_path', 'text')
    .addColumn('sync_mode', 'varchar(16)', (c) => c.notNull().defaultTo('incremental'))
    .addColumn('batch_id', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_retries', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('next_retry_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('retry_jobs_due').on('retry_jobs').columns(['status', 'next_retry_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retry_jobs').execute();
  await db.schema.dropTable('push_results').execute();
  await db.schema.dropTable('push_batches').execute();
}
