/**
 * `agent_heartbeats` (migration 20261126T1703): the recent readings of each server. Inserted in
 * batches by the recorder, pruned by age, read as "the newest N points of every server" in one
 * statement (a window function, on SQLite 3.25+ and PostgreSQL alike).
 */
import { sql, type Generated, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

interface HeartbeatsTable {
  id: Generated<number>;
  server_id: number;
  at: string;
  cpu: number;
  mem: number;
  disk: number;
  load: number | null;
  drift_s: number;
  version: string | null;
}

type PointsDb = Database & { agent_heartbeats: HeartbeatsTable };

export interface PointRow {
  server_id: number;
  at: string;
  cpu: number;
  mem: number;
  disk: number;
  load: number | null;
  drift_s: number;
  version: string | null;
}

export interface MonitoredServerRow {
  id: number;
  name: string;
  host: string;
  status: string;
  last_heartbeat_at: string | null;
}

/** Rows per INSERT: 8 columns each keeps far below both dialects' bound-parameter limits. */
const CHUNK = 500;

export class HeartbeatPointsRepository {
  private readonly db: Kysely<PointsDb>;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<PointsDb>;
  }

  async insert(points: PointRow[]): Promise<void> {
    for (let i = 0; i < points.length; i += CHUNK) {
      await this.db.insertInto('agent_heartbeats').values(points.slice(i, i + CHUNK)).execute();
    }
  }

  async pruneBefore(at: string): Promise<void> {
    await this.db.deleteFrom('agent_heartbeats').where('at', '<', at).execute();
  }

  /** The newest `perServer` points of every server (of servers that still exist), oldest first. */
  async recent(perServer: number): Promise<PointRow[]> {
    const r = await sql<PointRow>`
      SELECT server_id, at, cpu, mem, disk, load, drift_s, version FROM (
        SELECT h.*, ROW_NUMBER() OVER (PARTITION BY h.server_id ORDER BY h.at DESC, h.id DESC) AS rn
        FROM agent_heartbeats h
      ) x
      WHERE rn <= ${perServer}
      ORDER BY server_id, at, rn DESC`.execute(this.db);
    return r.rows.map((p) => ({
      server_id: Number(p.server_id),
      at: p.at,
      cpu: Number(p.cpu),
      mem: Number(p.mem),
      disk: Number(p.disk),
      load: p.load === null ? null : Number(p.load),
      drift_s: Number(p.drift_s),
      version: p.version,
    }));
  }

  servers(): Promise<MonitoredServerRow[]> {
    return this.db.selectFrom('servers').select(['id', 'name', 'host', 'status', 'last_heartbeat_at']).orderBy('name').execute();
  }
}
