/**
 * The monitoring columns of `servers` — the agent token hash (indexed, `servers_agent_token`),
 * the heartbeat time and the online/offline status — written for the agent and alerts features.
 * Only the servers module writes `servers`; those features get these methods through the narrow
 * ports below, wired by the composition root. Heartbeats are written in batches: one statement
 * per flush.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/migrations/helpers.js';
import type { Database } from '../../db/types.js';

/** A server as the agent's token check and the offline detector see it: no credentials. */
export interface MonitoredServer {
  id: number;
  name: string;
  status: string;
}

/** Rows per UPDATE; keeps SQLite's and PostgreSQL's bound-parameter limits far away. */
const CHUNK = 400;

export class ServerStateRepository {
  /**
   * SQLite plans touch()'s UPDATE … FROM as a scan of all servers per chunk; this redundant IN makes
   * it look them up by id (400 beats at 100,000 servers: 1.7 ms instead of 13.6). PostgreSQL
   * already uses the primary key, and the IN would only add a hash join there.
   */
  private readonly byIdOnly: RawBuilder<unknown>;

  constructor(private readonly db: Kysely<Database>) {
    this.byIdOnly = isPostgres(db as unknown as Kysely<unknown>) ? sql`` : sql` AND servers.id IN (SELECT id FROM beats)`;
  }

  findByTokenHash(hash: string): Promise<MonitoredServer | undefined> {
    return this.db.selectFrom('servers').select(['id', 'name', 'status']).where('agent_token_hash', '=', hash).executeTakeFirst();
  }

  /** The stored hash (null: none issued); undefined when the server does not exist. */
  async tokenHash(id: number): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('servers').select('agent_token_hash').where('id', '=', id).executeTakeFirst();
    return row ? row.agent_token_hash : undefined;
  }

  /** Sets the hash; with `expected` only while the stored hash is still that one. */
  async setTokenHash(id: number, hash: string | null, expected?: string | null): Promise<boolean> {
    let q = this.db.updateTable('servers').set({ agent_token_hash: hash }).where('id', '=', id);
    if (expected !== undefined) q = expected === null ? q.where('agent_token_hash', 'is', null) : q.where('agent_token_hash', '=', expected);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async markOnline(id: number, at: string): Promise<void> {
    await this.db.updateTable('servers').set({ last_heartbeat_at: at, status: 'online' }).where('id', '=', id).execute();
  }

  /** Writes many heartbeat times at once; returns the ids that still exist. */
  async touch(beats: Array<[id: number, at: string]>): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < beats.length; i += CHUNK) {
      const values = sql.join(beats.slice(i, i + CHUNK).map(([id, at]) => sql`(CAST(${id} AS integer), CAST(${at} AS text))`));
      // UPDATE … FROM a VALUES list: PostgreSQL and SQLite (3.33+) both accept this form.
      const r = await sql<{ id: number }>`
        WITH beats (id, at) AS (VALUES ${values})
        UPDATE servers SET last_heartbeat_at = beats.at, status = 'online'
        FROM beats WHERE servers.id = beats.id${this.byIdOnly}
        RETURNING servers.id`.execute(this.db);
      for (const row of r.rows) seen.push(Number(row.id));
    }
    return seen;
  }

  /** Servers that have sent a heartbeat, but none since `cutoff`, and are not yet marked offline. */
  stale(cutoffIso: string): Promise<MonitoredServer[]> {
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
    await this.db.updateTable('servers').set({ status: 'offline' }).where('id', 'in', ids).where('last_heartbeat_at', '<', cutoffIso).execute();
  }
}

/** What the agent feature may do to `servers`: its token and heartbeat columns. */
export type AgentServerStore = Pick<ServerStateRepository, 'findByTokenHash' | 'tokenHash' | 'setTokenHash' | 'markOnline' | 'touch'>;

/** What the offline detector may do to `servers`: find silent servers and mark them offline. */
export type ServerStatusStore = Pick<ServerStateRepository, 'stale' | 'markOffline'>;
