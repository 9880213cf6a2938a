/**
 * `agent_heartbeats` (migration 20261126T1703): the recent readings of each server. Inserted in
 * batches by the recorder, pruned by age, read as "the newest N points of every server" in one
 * statement (a window function, on SQLite 3.25+ and PostgreSQL alike).
 */
import { CompiledQuery, sql, type Generated, type Kysely } from 'kysely';
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

/** The columns of a point, in the order its values are bound. */
const COLUMNS = ['server_id', 'at', 'cpu', 'mem', 'disk', 'load', 'drift_s', 'version'] as const satisfies ReadonlyArray<keyof PointRow>;
/**
 * Rows per INSERT: a batch goes in statements of 512 rows, the rest in powers of two (256 … 1),
 * so there are only ten statement texts, each compiled once. 8 columns × 512 rows stays far
 * below both dialects' bound-parameter limits.
 */
const MAX_ROWS = 512;

export class HeartbeatPointsRepository {
  private readonly db: Kysely<PointsDb>;
  private readonly insertSql = new Map<number, string>();

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<PointsDb>;
  }

  /**
   * One transaction for the whole batch: all of it is written or none (the recorder keeps a
   * failed batch for the next flush, which must not write its first chunks twice), and SQLite
   * commits once instead of once per chunk — an index page touched by every chunk is written to
   * the WAL once. Per row that halved the CPU and cut the time 2–4× (most of a heartbeat's cost).
   * The statements' text comes from Kysely (the dialect's own placeholders), compiled once per row
   * count; each flush only binds values. Building Kysely's query tree for thousands of rows a
   * second (objects per value, all alive until the statement ran) cost about a quarter of a
   * row's CPU time and fed the garbage collector.
   */
  async insert(points: PointRow[]): Promise<void> {
    if (points.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < points.length; ) {
        const left = points.length - i;
        const n = left >= MAX_ROWS ? MAX_ROWS : 2 ** Math.floor(Math.log2(left));
        const params: unknown[] = new Array(n * COLUMNS.length);
        let k = 0;
        for (let r = i; r < i + n; r++) {
          const p = points[r];
          for (const c of COLUMNS) params[k++] = p[c];
        }
        await trx.executeQuery(CompiledQuery.raw(this.insertText(n), params));
        i += n;
      }
    });
  }

  /** The INSERT of `n` points, as Kysely compiles it for this dialect (cached: ten sizes at most). */
  private insertText(n: number): string {
    let text = this.insertSql.get(n);
    if (text === undefined) {
      const row = Object.fromEntries(COLUMNS.map((c) => [c, null])) as unknown as PointRow;
      const compiled = this.db.insertInto('agent_heartbeats').values(new Array<PointRow>(n).fill(row)).compile();
      // Every value must be a bound parameter, in row-major column order, or the values would shift.
      if (compiled.parameters.length !== n * COLUMNS.length) throw new Error('unexpected INSERT shape for agent_heartbeats');
      text = compiled.sql;
      this.insertSql.set(n, text);
    }
    return text;
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
