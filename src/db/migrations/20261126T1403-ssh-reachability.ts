import type { Kysely } from 'kysely';

/**
 * A server's SSH reachability, beside the agent's heartbeat status: when a connection last
 * worked, when one last failed and how (an error class such as `refused` or `auth_failed`, never
 * a message), and since when contacts have been failing (null while they work). Written by the
 * servers feature from the SSH pool's outcomes, coalesced, so a server reached without an agent
 * is not "unknown" for ever.
 */
const COLUMNS = ['ssh_last_ok_at', 'ssh_last_error_at', 'ssh_last_error', 'ssh_failing_since'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('servers').addColumn(c, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of [...COLUMNS].reverse()) await db.schema.alterTable('servers').dropColumn(c).execute();
}
