import type { Kysely } from 'kysely';

/**
 * The last TOTP time step each admin used, so a code is accepted once. It lives in the database,
 * not the cache: the check then has exactly the availability of the login it guards (which reads
 * the admin row anyway) and holds on every process. In a cache it would either fail open while
 * the cache is down (codes replayable) or fail closed (every TOTP admin locked out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admins').addColumn('totp_last_step', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admins').dropColumn('totp_last_step').execute();
}
