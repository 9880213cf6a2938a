/**
 * Alert history: filters (date filters are whole Asia/Shanghai days), the pagination rules
 * (page/per_page or limit/offset, pages at least 1) and the dashboard statistics.
 */
import type { Logger } from '../../core/logger.js';
import { parseDateBound, shanghaiDay } from '../../core/time.js';
import type { AlertRow } from '../../db/types.js';
import type { ActiveAlertStore } from './active-alerts.store.js';
import { addDays } from './alert-days.js';
import { alertCsv } from './alert-history-csv.js';
import type { AlertFilter, AlertLogRepository } from './alert-log.repository.js';
import type { AlertEntry, HistoryPage, HistoryQuery, Stats } from './alert-history.schemas.js';

export interface AlertHistoryDeps {
  repo: AlertLogRepository;
  store: ActiveAlertStore;
  now: () => number;
  log: Logger;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);

/** The repository filter a list or export query stands for (dates as whole Asia/Shanghai days). */
export function historyFilter(q: HistoryQuery): AlertFilter {
  const f: AlertFilter = {};
  if (q.server_id !== undefined) f.serverId = q.server_id;
  if (q.type) f.type = q.type;
  if (q.is_recovery !== undefined && q.is_recovery !== '') f.isRecovery = TRUE_WORDS.has(q.is_recovery.toLowerCase());
  if (q.status === 'active') f.isRecovery = false;
  else if (q.status === 'recovered') f.isRecovery = true;
  if (q.date_from) f.from = parseDateBound(q.date_from, 'from', 'date_from');
  if (q.date_to) f.to = parseDateBound(q.date_to, 'to', 'date_to');
  return f;
}

export class AlertHistoryService {
  constructor(private readonly d: AlertHistoryDeps) {}

  async list(q: HistoryQuery): Promise<HistoryPage> {
    const limit = q.per_page ?? q.limit ?? 50;
    const offset = q.page !== undefined ? (q.page - 1) * limit : (q.offset ?? 0);
    const filter = historyFilter(q);
    const [total, rows] = await Promise.all([this.d.repo.count(filter), this.d.repo.list(filter, limit, offset)]);
    return {
      items: await this.entries(rows),
      total,
      limit,
      offset,
      page: q.page ?? Math.floor(offset / limit) + 1,
      per_page: q.per_page ?? limit,
      pages: Math.max(1, Math.ceil(total / limit)),
    };
  }

  /** The filtered history as CSV chunks; a bad filter throws here, before anything is sent. */
  exportCsv(q: HistoryQuery): AsyncGenerator<string> {
    return alertCsv(this.d.repo, historyFilter(q));
  }

  async stats(days = 7): Promise<Stats> {
    const n = Math.max(1, days);
    const today = shanghaiDay(this.d.now());
    const first = addDays(today, -(n - 1));
    const [counts, top, active] = await Promise.all([
      this.d.repo.typeCounts(first, today),
      this.d.repo.topServers(first, today, 5),
      this.d.store.count().catch((err: unknown) => {
        this.d.log.warn({ err }, 'active alert count unavailable (cache)');
        return 0;
      }),
    ]);
    const byDay = new Map<string, { alerts: number; recoveries: number }>();
    const byType = new Map<string, number>();
    const dailyTypes: Array<{ day: string; alert_type: string; count: number }> = [];
    for (const c of counts) {
      if (!c.is_recovery && c.n > 0) dailyTypes.push({ day: c.day, alert_type: c.alert_type, count: c.n });
      const e = byDay.get(c.day) ?? { alerts: 0, recoveries: 0 };
      if (c.is_recovery) e.recoveries += c.n;
      else {
        e.alerts += c.n;
        byType.set(c.alert_type, (byType.get(c.alert_type) ?? 0) + c.n);
      }
      byDay.set(c.day, e);
    }
    const topTypes = [...byType]
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 5)
      .map(([alert_type, count]) => ({ alert_type, count }));
    const daily = Array.from({ length: n }, (_, i) => {
      const day = addDays(first, i);
      return { day, ...(byDay.get(day) ?? { alerts: 0, recoveries: 0 }) };
    });
    const names = await this.names(top.map((t) => t.server_id));
    const topServers = top.map((t) => ({ server_id: t.server_id, server_name: names.get(t.server_id)!, count: t.count }));
    const last = daily[daily.length - 1];
    return {
      top_types: topTypes,
      top_servers: topServers,
      daily,
      today: last.alerts,
      recovered: last.recoveries,
      active,
      top_server: topServers[0]?.server_name ?? null,
      daily_types: dailyTypes.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.alert_type < b.alert_type ? -1 : 1)),
    };
  }

  private async entries(rows: AlertRow[]): Promise<AlertEntry[]> {
    const unnamed = [...new Set(rows.filter((r) => !r.server_name).map((r) => r.server_id))];
    const names = await this.d.repo.serverNames(unnamed);
    return rows.map((r) => ({
      id: r.id,
      server_id: r.server_id,
      server_name: r.server_name || names.get(r.server_id) || `#${r.server_id}`,
      alert_type: r.alert_type,
      value: r.value === null ? null : Number(r.value),
      is_recovery: Number(r.is_recovery) === 1,
      created_at: r.created_at,
    }));
  }

  /** Current name, else the newest name the log recorded, else `#<id>`. */
  private async names(ids: number[]): Promise<Map<number, string>> {
    const current = await this.d.repo.serverNames(ids);
    const missing = ids.filter((id) => !current.has(id));
    const logged = await this.d.repo.loggedNames(missing);
    return new Map(ids.map((id) => [id, current.get(id) ?? logged.get(id) ?? `#${id}`]));
  }
}
