import type { Kysely } from 'kysely';

/**
 * Idempotency keys of requests that start work: one row per (caller, key) for ten minutes, so a
 * repeated request (a double click, a client retrying after a timeout) gets the first answer
 * instead of starting the work again. The primary key makes two racing requests with the same key
 * collide in the database, whichever worker process serves each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'varchar(64)', (c) => c.notNull())
    .addColumn('idem_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
