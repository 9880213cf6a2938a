import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Every live message of a push batch, numbered per batch (`seq` from 1), so a page that
 * reconnects or opens a batch later asks for what it missed and gets it without gaps or doubles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('push_events'))
    .addColumn('batch_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('push_events_batch_seq', ['batch_id', 'seq'])
    .execute();
  await db.schema.createIndex('push_events_created').on('push_events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_events').execute();
}
