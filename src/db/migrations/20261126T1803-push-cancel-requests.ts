import type { Kysely } from 'kysely';

/**
 * When a push batch's cancel was asked for. The flag in the cache tells every worker at once; this
 * column is the copy that survives the cache being down or restarted empty, so a cancel sent
 * during a Redis outage still stops the batch before its next server. Written only by the push module.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_batches').addColumn('cancel_requested_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('push_batches').dropColumn('cancel_requested_at').execute();
}
