import type { Kysely } from 'kysely';

/**
 * Leases on claimed work: the process running a push batch or a retry job writes its identity
 * and an expiry, and renews it while it runs. Any process may recover work whose lease ran out,
 * so a crashed worker's batches and jobs come back without restarting the whole service. Rows
 * written before this migration have no lease and count as expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['push_batches', 'retry_jobs']) {
    await db.schema.alterTable(table).addColumn('lease_owner', 'varchar(128)').execute();
    await db.schema.alterTable(table).addColumn('lease_expires_at', 'text').execute();
  }
  await db.schema.createIndex('push_batches_status').on('push_batches').column('status').execute();
  await db.schema.createIndex('retry_jobs_status').on('retry_jobs').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('retry_jobs_status').execute();
  await db.schema.dropIndex('push_batches_status').execute();
  for (const table of ['push_batches', 'retry_jobs']) {
    await db.schema.alterTable(table).dropColumn('lease_expires_at').execute();
    await db.schema.alterTable(table).dropColumn('lease_owner').execute();
  }
}
