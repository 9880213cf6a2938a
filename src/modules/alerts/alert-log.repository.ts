/**
 * The alert log and its daily counters (migration 20261122T0008). Lists read `alert_log` through
 * its indexes; `count` and the stats read the trigger-maintained counters, touching the log only
 * for partial edge days, so an exact `total` stays cheap at a million rows. The open alerts come
 * from the trigger-kept newest row of each server and type (`alert_latest`, 20261127T1801).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AlertRow, Database } from '../../db/types.js';
import { planCount, type Range } from './alert-days.js';

interface DailyTypesTable {
  day: string;
  alert_type: string;
  is_recovery: number;
  n: number;
}

interface DailyServersTable {
  server_id: number;
  is_recovery: number;
  day: string;
  n: number;
}

/** The newest log row of each server and type (migration 20261127T1801, kept by triggers). */
interface LatestTable {
  server_id: number;
  alert_type: string;
  log_id: number;
  is_recovery: number;
}

export type MonitoringDb = Database & { alert_daily_types: DailyTypesTable; alert_daily_servers: DailyServersTable; alert_latest: LatestTable };

export interface AlertFilter {
  serverId?: number;
  type?: string;
  isRecovery?: boolean;
  /** Inclusive UTC ISO bounds. */
  from?: string;
  to?: string;
}

export type NewAlert = Omit<AlertRow, 'id'>;

export interface TypeCount {
  day: string;
  alert_type: string;
  is_recovery: number;
  n: number;
}

export class AlertLogRepository {
  private readonly db: Kysely<MonitoringDb>;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<MonitoringDb>;
  }

  insert(row: NewAlert): Promise<AlertRow> {
    return this.db.insertInto('alert_log').values(row).returningAll().executeTakeFirstOrThrow();
  }

  list(f: AlertFilter, limit: number, offset: number): Promise<AlertRow[]> {
    return this.filtered(this.db.selectFrom('alert_log').selectAll(), f)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The next page after `cursor` in list order (newest first): keyset paging for exports. */
  listAfter(f: AlertFilter, cursor: { created_at: string; id: number } | undefined, limit: number): Promise<AlertRow[]> {
    let q = this.filtered(this.db.selectFrom('alert_log').selectAll(), f);
    if (cursor) {
      q = q.where((eb) =>
        eb.or([eb('created_at', '<', cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)])]),
      );
    }
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async count(f: AlertFilter): Promise<number> {
    // A server and a type together select few rows; the covering index counts them directly.
    if (f.serverId !== undefined && f.type !== undefined) return this.countLog(f);
    const plan = planCount(f.from, f.to);
    const parts = plan.edges.map((e) => this.countLog({ ...f, from: e.from, to: e.to }));
    if (plan.days) parts.push(this.countDays(f, plan.days));
    return (await Promise.all(parts)).reduce((a, b) => a + b, 0);
  }

  /** Current server names, for rows stored without one. */
  async serverNames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('servers').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The newest stored name of each server in the log (for servers deleted since). */
  async loggedNames(ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const id of ids) {
      const row = await this.db
        .selectFrom('alert_log')
        .select('server_name')
        .where('server_id', '=', id)
        .where('server_name', 'is not', null)
        // (server_id, created_at) index order: the newest row is the first one read.
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row?.server_name) out.set(id, row.server_name);
    }
    return out;
  }

  /** Which of these servers still exist. */
  async existingServers(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('servers').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /**
   * Every server+type whose newest row is not a recovery: the active alerts as the log knows them.
   * Deleted servers have none (their alerts can never recover).
   */
  openKeys(): Promise<Array<{ server_id: number; alert_type: string; server_name: string | null }>> {
    return this.openPairs()
      .innerJoin('alert_log', 'alert_log.id', 'alert_latest.log_id')
      .select(['alert_latest.server_id', 'alert_latest.alert_type', 'alert_log.server_name'])
      .execute();
  }

  /** How many alerts are open as the log knows them (the count of `openKeys`, without reading them). */
  async openCount(): Promise<number> {
    const row = await this.openPairs()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The open pairs of servers that still exist: what `openKeys` lists and `openCount` counts. */
  private openPairs() {
    return this.db
      .selectFrom('alert_latest')
      .where('alert_latest.is_recovery', '=', 0)
      .where('alert_latest.server_id', 'in', (eb) => eb.selectFrom('servers').select('id'));
  }

  /** The rows that opened the alerts still active (newest first), with their server's current name. */
  openRows(limit: number): Promise<Array<AlertRow & { current_name: string | null }>> {
    // Newest first along the (is_recovery, log_id) index: reads about `limit` entries.
    return this.db
      .selectFrom('alert_latest')
      .innerJoin('alert_log', 'alert_log.id', 'alert_latest.log_id')
      .innerJoin('servers', 'servers.id', 'alert_log.server_id')
      .selectAll('alert_log')
      .select('servers.name as current_name')
      .where('alert_latest.is_recovery', '=', 0)
      .orderBy('alert_latest.log_id', 'desc')
      .limit(limit)
      .execute();
  }

  async newestIsOpen(serverId: number, type: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('alert_log')
      .select('is_recovery')
      .where('server_id', '=', serverId)
      .where('alert_type', '=', type)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined && Number(row.is_recovery) === 0;
  }

  /** Counts per day, type and recovery flag over a range of days (a few hundred rows at most). */
  async typeCounts(fromDay: string, toDay: string): Promise<TypeCount[]> {
    const rows = await this.db
      .selectFrom('alert_daily_types')
      .select(['day', 'alert_type', 'is_recovery', 'n'])
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .where('n', '!=', 0)
      .execute();
    return rows.map((r) => ({ day: r.day, alert_type: r.alert_type, is_recovery: Number(r.is_recovery), n: Number(r.n) }));
  }

  async topServers(fromDay: string, toDay: string, limit: number): Promise<Array<{ server_id: number; count: number }>> {
    const rows = await this.db
      .selectFrom('alert_daily_servers')
      .select(['server_id', (eb) => eb.fn.sum<number>('n').as('count')])
      .where('is_recovery', '=', 0)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy('server_id')
      .having((eb) => eb.fn.sum('n'), '>', 0)
      .orderBy('count', 'desc')
      .orderBy('server_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ server_id: Number(r.server_id), count: Number(r.count) }));
  }

  private async countLog(f: AlertFilter): Promise<number> {
    const q = this.filtered(this.db.selectFrom('alert_log'), f);
    const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private async countDays(f: AlertFilter, days: Range): Promise<number> {
    let row: { n: number | string | null } | undefined;
    if (f.serverId !== undefined) {
      let q = this.db.selectFrom('alert_daily_servers').where('server_id', '=', f.serverId);
      if (f.isRecovery !== undefined) q = q.where('is_recovery', '=', f.isRecovery ? 1 : 0);
      if (days.from !== undefined) q = q.where('day', '>=', days.from);
      if (days.to !== undefined) q = q.where('day', '<=', days.to);
      row = await q.select((eb) => eb.fn.sum<number>('n').as('n')).executeTakeFirst();
    } else {
      let q = this.db.selectFrom('alert_daily_types');
      if (f.type !== undefined) q = q.where('alert_type', '=', f.type);
      if (f.isRecovery !== undefined) q = q.where('is_recovery', '=', f.isRecovery ? 1 : 0);
      if (days.from !== undefined) q = q.where('day', '>=', days.from);
      if (days.to !== undefined) q = q.where('day', '<=', days.to);
      row = await q.select((eb) => eb.fn.sum<number>('n').as('n')).executeTakeFirst();
    }
    return Number(row?.n ?? 0);
  }

  private filtered<O>(q: SelectQueryBuilder<MonitoringDb, 'alert_log', O>, f: AlertFilter) {
    if (f.serverId !== undefined) q = q.where('server_id', '=', f.serverId);
    if (f.type !== undefined) q = q.where('alert_type', '=', f.type);
    if (f.isRecovery !== undefined) q = q.where('is_recovery', '=', f.isRecovery ? 1 : 0);
    if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
    if (f.to !== undefined) q = q.where('created_at', '<=', f.to);
    return q;
  }
}
