import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Notification channels (DingTalk, email, webhook, ...): one row per configured channel. `config`
 * is JSON of the non-secret fields; `secrets` is one ciphertext (the service cipher) of a JSON
 * object with the secret fields, so no credential is ever stored in clear. `events` and `tags`
 * are JSON arrays; empty tags mean every server. Names are unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('notification_channels'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_channels').execute();
}
