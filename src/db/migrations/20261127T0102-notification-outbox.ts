import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The notification outbox: one row per (event, destination) still to deliver or delivered. A
 * delivery loop claims due rows with a lease (owner + expiry) so two processes never send the
 * same row and a row claimed by a process that died is sent after its lease runs out. `payload`
 * is the rendered message (JSON); `dedup_key` collapses identical alerts inside a window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('notification_outbox'))
    .addColumn('event_kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('destination', 'varchar(64)', (c) => c.notNull())
    .addColumn('channel_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('dedup_key', 'varchar(255)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('notification_outbox_dedup').on('notification_outbox').columns(['dedup_key', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
}
