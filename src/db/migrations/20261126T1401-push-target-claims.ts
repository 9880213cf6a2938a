import type { Kysely } from 'kysely';

/**
 * Which (server, remote directory) pairs a running push batch or retry job is writing, so two
 * rsyncs never write the same target at once, across every worker process. The unique key on
 * (server_id, target_hash) makes an exact duplicate claim fail atomically on either dialect; the
 * hash (sha256 of the normalised path) keeps the key short whatever the path's length. Each claim
 * carries its process's lease, so a crashed process's claims expire with its leases.
 * `push_results.error_code` marks why a server failed when a client should react to it
 * (`target_busy`), beside the human `error`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_target_claims')
    .addColumn('server_id', 'integer', (c) => c.notNull())
    .addColumn('target_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_path', 'text', (c) => c.notNull())
    .addColumn('holder_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('holder_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(128)', (c) => c.notNull())
    .addColumn('lease_expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_target_claims_pk', ['server_id', 'target_hash'])
    .execute();
  await db.schema.createIndex('push_target_claims_holder').on('push_target_claims').columns(['holder_kind', 'holder_id']).execute();
  await db.schema.alterTable('push_results').addColumn('error_code', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_results').dropColumn('error_code').execute();
  await db.schema.dropTable('push_target_claims').execute();
}
