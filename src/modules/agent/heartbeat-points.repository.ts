/**
 * `agent_heartbeats` (migration 20261126T1703): the recent readings of each server. Inserted in
 * batches by the recorder (one statement text per row count, compiled once), pruned by age, read
 * as "the newest N points of every server" through the (server_id, at) index.
 * `agent_latest_reading` (migration 20261128T0301): each server's newest reading, kept in the
 * same transactions, read whole when the monitoring list is sorted by a reading.
 */
import { CompiledQuery, PostgresAdapter, sql, type Generated, type Kysely } from 'kysely';
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

type PointsDb = Database & { agent_heartbeats: HeartbeatsTable; agent_latest_reading: Omit<HeartbeatsTable, 'id'> };

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

/** The two statements a batch is written with: its readings, and each server's newest one. */
type StatementKind = 'readings' | 'newest';

/**
 * Each server's newest point of a batch. Of points sharing a time the later one wins, as the
 * newest-first read of the readings orders them.
 */
function newestOfEach(points: PointRow[]): PointRow[] {
  const newest = new Map<number, PointRow>();
  for (const p of points) {
    const seen = newest.get(p.server_id);
    if (!seen || p.at >= seen.at) newest.set(p.server_id, p);
  }
  return [...newest.values()];
}

/**
 * The batch ordered by server, each server's readings kept in arrival order (the sort is stable,
 * so their ids still grow with their times). Rows arrive interleaved across the whole fleet; in
 * that order every insert descends the (server_id, at) index to a different leaf, while in server
 * order the next insert finds its leaf where the last one left the cursor (and the newest-reading
 * upsert goes in key order too). On SQLite with 2,000 servers and 15,000 readings a second, the
 * insert fell from about 6.8 to 2.6 µs a row, and a heartbeat's database time from 8.6 to 5.2 µs.
 */
function inServerOrder(points: PointRow[]): PointRow[] {
  return points.slice().sort((a, b) => a.server_id - b.server_id);
}

export class HeartbeatPointsRepository {
  private readonly db: Kysely<PointsDb>;
  private readonly postgres: boolean;
  private readonly statementSql = new Map<string, string>();

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<PointsDb>;
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * The batch's readings, then each server's newest of them into `agent_latest_reading`.
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
    const byServer = inServerOrder(points);
    await this.db.transaction().execute(async (trx) => {
      await this.writeChunked(trx, 'readings', byServer);
      await this.writeChunked(trx, 'newest', newestOfEach(byServer));
    });
  }

  /** `rows` through the statement `kind` in chunks of MAX_ROWS, then powers of two; only values are bound. */
  private async writeChunked(trx: Kysely<PointsDb>, kind: StatementKind, rows: PointRow[]): Promise<void> {
    for (let i = 0; i < rows.length; ) {
      const left = rows.length - i;
      const n = left >= MAX_ROWS ? MAX_ROWS : 2 ** Math.floor(Math.log2(left));
      const params: unknown[] = new Array(n * COLUMNS.length);
      let k = 0;
      for (let r = i; r < i + n; r++) {
        const p = rows[r];
        for (const c of COLUMNS) params[k++] = p[c];
      }
      await trx.executeQuery(CompiledQuery.raw(this.statementText(kind, n), params));
      i += n;
    }
  }

  /** Every server's newest reading within the retention window (deleted servers' too: callers look up by id). */
  async newest(): Promise<PointRow[]> {
    const rows = await this.db.selectFrom('agent_latest_reading').select(['server_id', 'at', 'cpu', 'mem', 'disk', 'load', 'drift_s', 'version']).execute();
    return rows.map(toPoint);
  }

  /**
   * The statement writing `n` points, as Kysely compiles it for this dialect (cached: ten sizes
   * of each kind at most). `newest` is the upsert into `agent_latest_reading`: a server's row
   * moves on unless the one there is newer (a slower flush of another process).
   */
  private statementText(kind: StatementKind, n: number): string {
    const key = `${kind}:${n}`;
    let text = this.statementSql.get(key);
    if (text === undefined) {
      const rows = new Array<PointRow>(n).fill(Object.fromEntries(COLUMNS.map((c) => [c, null])) as unknown as PointRow);
      const compiled =
        kind === 'readings'
          ? this.db.insertInto('agent_heartbeats').values(rows).compile()
          : this.db
              .insertInto('agent_latest_reading')
              .values(rows)
              .onConflict((oc) =>
                oc
                  .column('server_id')
                  .doUpdateSet((eb) => ({
                    at: eb.ref('excluded.at'),
                    cpu: eb.ref('excluded.cpu'),
                    mem: eb.ref('excluded.mem'),
                    disk: eb.ref('excluded.disk'),
                    load: eb.ref('excluded.load'),
                    drift_s: eb.ref('excluded.drift_s'),
                    version: eb.ref('excluded.version'),
                  }))
                  .where('excluded.at', '>=', (eb) => eb.ref('agent_latest_reading.at')),
              )
              .compile();
      // Every value must be a bound parameter, in row-major column order, or the values would shift.
      if (compiled.parameters.length !== n * COLUMNS.length) throw new Error(`unexpected statement shape writing ${kind} points`);
      text = compiled.sql;
      this.statementSql.set(key, text);
    }
    return text;
  }

  /**
   * Deletes the readings older than `cutoff`, found in id order: there is no index on the time
   * alone (every insert would pay for it). Readings get their ids in the order they are written,
   * and their time is the service's clock when they came, so everything below the first id stamped
   * within [cutoff, notAfter] is older than the cut. What is out of that order (a batch is written
   * in server order, a failed one a second later) stays until a later pruning passes it, a minute
   * or two. A reading stamped after `notAfter` was written while the clock ran ahead; it does not
   * hold the cut back (the table would grow for as long as the clock was wrong), it goes with the
   * old ones; so does a server's newest reading stamped after it (it would stand for the server's
   * newest until the clock caught up: a newer one never replaces it).
   */
  async pruneBefore(cutoff: string, notAfter: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const first = await trx
        .selectFrom('agent_heartbeats')
        .select('id')
        .where('at', '>=', cutoff)
        .where('at', '<=', notAfter)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      const old = trx.deleteFrom('agent_heartbeats');
      await (first ? old.where('id', '<', first.id) : old).execute();
      // One row per server, read whole: no index needed to find the old and the ahead ones.
      await trx.deleteFrom('agent_latest_reading').where((eb) => eb.or([eb('at', '<', cutoff), eb('at', '>', notAfter)])).execute();
    });
  }

  /**
   * The newest `perServer` points of every existing server, oldest first. Each server's points are
   * found through its (server_id, at) index, so the cost grows with the points returned, not with
   * the whole table (a window over every row read all 1.2 M readings of 10,000 servers):
   * PostgreSQL takes each server's newest rows with a LATERAL LIMIT; SQLite, which has no LATERAL,
   * finds each server's `perServer`-th newest time with a correlated index probe and reads the
   * readings from there on. Readings sharing that time can add a few rows: trimmed below.
   * `ids` limits it to those servers (one page of the monitoring list); without it, every server.
   */
  async recent(perServer: number, ids?: number[]): Promise<PointRow[]> {
    if (ids?.length === 0) return [];
    const only = ids ? sql`WHERE s.id IN (${sql.join(ids)})` : sql``;
    const r = this.postgres
      ? await sql<PointRow & { id: number }>`
          SELECT s.id AS server_id, p.id, p.at, p.cpu, p.mem, p.disk, p.load, p.drift_s, p.version
          FROM servers s CROSS JOIN LATERAL (
            SELECT h.id, h.at, h.cpu, h.mem, h.disk, h.load, h.drift_s, h.version FROM agent_heartbeats h
            WHERE h.server_id = s.id ORDER BY h.at DESC, h.id DESC LIMIT ${perServer}
          ) p ${only}
          ORDER BY s.id, p.at, p.id`.execute(this.db)
      : await sql<PointRow & { id: number }>`
          SELECT h.server_id, h.id, h.at, h.cpu, h.mem, h.disk, h.load, h.drift_s, h.version
          FROM servers s JOIN agent_heartbeats h ON h.server_id = s.id AND h.at >= coalesce((
            SELECT x.at FROM agent_heartbeats x WHERE x.server_id = s.id ORDER BY x.at DESC LIMIT 1 OFFSET ${perServer - 1}
          ), '') ${only}
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
