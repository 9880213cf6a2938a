/**
 * `agent_heartbeats` (migration 20261126T1703): the recent readings of each server. Inserted in
 * batches by the recorder, pruned by age, read as "the newest N points of every server" in one
 * statement (a window function, on SQLite 3.25+ and PostgreSQL alike).
 */
import { PostgresAdapter, sql, type Generated, type Kysely } from 'kysely';
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
  private readonly postgres: boolean;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<PointsDb>;
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * One transaction for the whole batch: all of it is written or none (the recorder keeps a
   * failed batch for the next flush, which must not write its first chunks twice), and SQLite
   * commits once instead of once per chunk — an index page touched by every chunk is written to
   * the WAL once. Per row that halved the CPU and cut the time 2–4× (most of a heartbeat's cost).
   */
  async insert(points: PointRow[]): Promise<void> {
    if (points.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < points.length; i += CHUNK) {
        await trx.insertInto('agent_heartbeats').values(points.slice(i, i + CHUNK)).execute();
      }
    });
  }

  async pruneBefore(at: string): Promise<void> {
    await this.db.deleteFrom('agent_heartbeats').where('at', '<', at).execute();
  }

  /**
   * The newest `perServer` points of every existing server, oldest first. Each server's points are
   * found through its (server_id, at) index, so the cost grows with the points returned, not with
   * the whole table (a window over every row read all 1.2 M readings of 10,000 servers):
   * PostgreSQL takes each server's newest rows with a LATERAL LIMIT; SQLite, which has no LATERAL,
   * finds each server's `perServer`-th newest time with a correlated index probe and reads the
   * readings from there on. Readings sharing that time can add a few rows: trimmed below.
   */
  async recent(perServer: number): Promise<PointRow[]> {
    const r = this.postgres
      ? await sql<PointRow & { id: number }>`
          SELECT s.id AS server_id, p.id, p.at, p.cpu, p.mem, p.disk, p.load, p.drift_s, p.version
          FROM servers s CROSS JOIN LATERAL (
            SELECT h.id, h.at, h.cpu, h.mem, h.disk, h.load, h.drift_s, h.version FROM agent_heartbeats h
            WHERE h.server_id = s.id ORDER BY h.at DESC, h.id DESC LIMIT ${perServer}
          ) p
          ORDER BY s.id, p.at, p.id`.execute(this.db)
      : await sql<PointRow & { id: number }>`
          SELECT h.server_id, h.id, h.at, h.cpu, h.mem, h.disk, h.load, h.drift_s, h.version
          FROM servers s JOIN agent_heartbeats h ON h.server_id = s.id AND h.at >= coalesce((
            SELECT x.at FROM agent_heartbeats x WHERE x.server_id = s.id ORDER BY x.at DESC LIMIT 1 OFFSET ${perServer - 1}
          ), '')
          ORDER BY h.server_id, h.at, h.id`.execute(this.db);
    const out: PointRow[] = [];
    const rows = r.rows;
    for (let i = 0; i < rows.length; ) {
      // Rows of one server are contiguous and oldest first: keep its last `perServer`.
      let end = i;
      while (end < rows.length && rows[end].server_id === rows[i].server_id) end++;
      for (let k = Math.max(i, end - perServer); k < end; k++) out.push(toPoint(rows[k]));
      i = end;
    }
    return out;
  }

  servers(): Promise<MonitoredServerRow[]> {
    return this.db.selectFrom('servers').select(['id', 'name', 'host', 'status', 'last_heartbeat_at']).orderBy('name').execute();
  }
}

function toPoint(p: PointRow): PointRow {
  return {
    server_id: Number(p.server_id),
    at: p.at,
    cpu: Number(p.cpu),
    mem: Number(p.mem),
    disk: Number(p.disk),
    load: p.load === null ? null : Number(p.load),
    drift_s: Number(p.drift_s),
    version: p.version,
  };
}
