import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Script runs, owned by the scripts module. `script_runs` is one row per run (who, when, what,
 * on which servers, the outcome, and each server's result as JSON, rewritten as servers end);
 * `script_run_events` holds every live message of a run numbered per run (`seq` from 1), so a
 * page that reloads mid-run asks for what it missed and gets each output chunk exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('script_runs'))
    .addColumn('run_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('script_id', 'integer')
    .addColumn('schedule_id', 'integer')
    .addColumn('operator', 'varchar(200)', (c) => c.notNull())
    .addColumn('server_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('duration_ms', 'integer')
    .execute();
  await db.schema.createIndex('script_runs_started').on('script_runs').column('started_at').execute();

  await withId(db, db.schema.createTable('script_run_events'))
    .addColumn('run_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('script_run_events_run_seq', ['run_id', 'seq'])
    .execute();
  await db.schema.createIndex('script_run_events_created').on('script_run_events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('script_run_events').execute();
  await db.schema.dropTable('script_runs').execute();
}
