/**
 * Records each heartbeat's reading for the monitoring page. Like the heartbeat times, readings are
 * buffered and written once a second in one statement; rows older than RETENTION_MS are deleted
 * once a minute. A reading that cannot be written is dropped after a bounded buffer fills: the
 * sparkline is a convenience, never worth memory trouble on the heartbeat path.
 */
import type { Logger } from '../../core/logger.js';
import type { HeartbeatPointsRepository, MonitoredServerRow, PointRow } from './heartbeat-points.repository.js';
import type { MetricsQuery, MetricsView } from './agent.schemas.js';
import { sortMonitored, sortsByReading } from './metrics-sort.js';

/** How long readings are kept: an hour of 30 s heartbeats is 120 points per server. */
export const RETENTION_MS = 60 * 60 * 1000;
const FLUSH_MS = 1_000;
const PRUNE_MS = 60_000;
const MAX_BUFFER = 50_000;

export class HeartbeatPoints {
  private buffer: PointRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastPrune = 0;
  private flushing: Promise<void> = Promise.resolve();
  private lastErrorLogAt = 0;

  constructor(
    private readonly repo: HeartbeatPointsRepository,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  record(p: PointRow): void {
    if (this.buffer.length >= MAX_BUFFER) this.buffer.shift();
    this.buffer.push(p);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    try {
      if (batch.length) await this.repo.insert(batch);
      const now = this.now();
      if (now - this.lastPrune >= PRUNE_MS) {
        this.lastPrune = now;
        // A reading stamped more than a pruning interval ahead came from a clock that ran ahead.
        await this.repo.pruneBefore(new Date(now - RETENTION_MS).toISOString(), new Date(now + PRUNE_MS).toISOString());
      }
    } catch (err) {
      // Points of a server deleted meanwhile are not an error worth keeping them for.
      this.buffer = [...batch, ...this.buffer].slice(-MAX_BUFFER);
      if (Date.now() - this.lastErrorLogAt > 30_000) {
        this.lastErrorLogAt = Date.now();
        this.log.warn({ err }, 'could not write heartbeat readings; retrying');
      }
    }
  }

  /**
   * The servers matching `q.q`, in the asked order, each with its newest reading and its last
   * `q.points` readings (after a flush); with `q.limit`, one page of them. A page reads readings
   * only for its own servers (plus, when sorted by a reading, every server's newest one, from the
   * table that keeps just those): 50 servers of 10,000 are 1,500 points, not 300,000.
   */
  async view(q: MetricsQuery): Promise<MetricsView> {
    await this.flush();
    const perServer = q.points ?? 30;
    const key = q.sort ?? 'name';
    const order = q.order ?? 'asc';
    const needle = q.q?.trim().toLowerCase();
    // Every server is read anyway (the sort needs them all), so `q` is matched here: the same
    // answer on both dialects, where SQLite's lower() would fold only ASCII.
    const all = await this.repo.servers();
    const matching = needle ? all.filter((s) => s.name.toLowerCase().includes(needle) || s.host.toLowerCase().includes(needle)) : all;
    let shown: MonitoredServerRow[];
    let byServer: Map<number, PointRow[]>;
    if (q.limit === undefined) {
      byServer = groupByServer(await this.repo.recent(perServer));
      shown = sortMonitored(matching, (id) => byServer.get(id)?.at(-1), key, order);
    } else {
      const newest = sortsByReading(key) ? new Map((await this.repo.newest()).map((p) => [p.server_id, p])) : null;
      const offset = q.offset ?? 0;
      shown = sortMonitored(matching, (id) => newest?.get(id), key, order).slice(offset, offset + q.limit);
      byServer = groupByServer(await this.repo.recent(perServer, shown.map((s) => Number(s.id))));
    }
    return {
      retention_s: RETENTION_MS / 1000,
      total: matching.length,
      items: shown.map((s) => {
        const list = byServer.get(Number(s.id)) ?? [];
        const last = list[list.length - 1];
        return {
          server_id: Number(s.id),
          name: s.name,
          host: s.host,
          status: s.status,
          last_heartbeat_at: s.last_heartbeat_at,
          last: last
            ? { at: last.at, cpu: last.cpu, mem: last.mem, disk: last.disk, load: last.load, drift_s: last.drift_s, version: last.version }
            : null,
          points: list.map((p) => ({ at: p.at, cpu: p.cpu, mem: p.mem, disk: p.disk })),
        };
      }),
    };
  }
}

/** Rows of `recent` (each server's contiguous, oldest first) by server. */
function groupByServer(rows: PointRow[]): Map<number, PointRow[]> {
  const byServer = new Map<number, PointRow[]>();
  for (const r of rows) {
    const list = byServer.get(r.server_id);
    if (list) list.push(r);
    else byServer.set(r.server_id, [r]);
  }
  return byServer;
}
