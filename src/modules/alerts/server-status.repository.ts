/** The heartbeat columns of `servers` as the offline detector needs them. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export interface StaleServer {
  id: number;
  name: string;
  status: string;
}

export class ServerStatusRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Servers that have sent a heartbeat, but none since `cutoff`, and are not yet marked offline. */
  stale(cutoffIso: string): Promise<StaleServer[]> {
    return this.db
      .selectFrom('servers')
      .select(['id', 'name', 'status'])
      .where('last_heartbeat_at', 'is not', null)
      .where('last_heartbeat_at', '<', cutoffIso)
      .where('status', '!=', 'offline')
      .orderBy('id')
      .execute();
  }

  /** Only while still stale: a heartbeat flushed in the meantime keeps the server online. */
  async markOffline(ids: number[], cutoffIso: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('servers')
      .set({ status: 'offline' })
      .where('id', 'in', ids)
      .where('last_heartbeat_at', '<', cutoffIso)
      .execute();
  }
}
