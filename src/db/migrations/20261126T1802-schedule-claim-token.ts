import type { Kysely } from 'kysely';

/**
 * `schedules.claim_token`: the random token of the claim that took the schedule's latest slot.
 * A claim whose UPDATE reached the database but whose answer was lost (the connection cut by a
 * PostgreSQL restart) reads it back to learn whether the slot is its own: without it that slot
 * was taken by nobody who would run it, and silently skipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedules').addColumn('claim_token', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedules').dropColumn('claim_token').execute();
}
