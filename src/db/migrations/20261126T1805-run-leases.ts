import type { Kysely } from 'kysely';

/**
 * Leases on script runs and schedule runs, as push batches have (20261124T0001-leases): the
 * process running one writes its identity and an expiry and renews it while the run goes on. A
 * run still `running` whose lease ran out belongs to a process that died (a crash, a SIGKILL):
 * recovery marks it failed with the reason, instead of it staying `running` forever. Rows written
 * before this migration have no lease and count as expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['script_runs', 'schedule_runs']) {
    await db.schema.alterTable(table).addColumn('lease_owner', 'varchar(128)').execute();
    await db.schema.alterTable(table).addColumn('lease_expires_at', 'text').execute();
    await db.schema.createIndex(`${table}_status`).on(table).column('status').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['script_runs', 'schedule_runs']) {
    await db.schema.dropIndex(`${table}_status`).execute();
    await db.schema.alterTable(table).dropColumn('lease_expires_at').execute();
    await db.schema.alterTable(table).dropColumn('lease_owner').execute();
  }
}
