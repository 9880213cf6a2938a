import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * One row per firing of a schedule (owned by the schedules module), so the console can show a
 * schedule's last result and its run history. Written when the run starts (`running`) and
 * completed when it ends: a push names its batch, a script its run id and counts; a run that
 * could not start keeps its error. Deleting a schedule deletes its runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('schedule_runs'))
    .addColumn('schedule_id', 'integer', (c) => c.notNull())
    .addColumn('schedule_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('batch_id', 'varchar(64)')
    .addColumn('run_id', 'varchar(64)')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('schedule_runs_schedule').on('schedule_runs').columns(['schedule_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('schedule_runs').execute();
}
