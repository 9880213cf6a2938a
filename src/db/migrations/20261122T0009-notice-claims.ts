import type { Kysely } from 'kysely';

/**
 * Short-lived claims that let one worker of several send a service notice. The cache does this
 * too, but a "cache connection lost" notice is exactly when the cache cannot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notice_claims')
    .addColumn('claim_key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notice_claims').execute();
}
