/**
 * The alerts open right now: the count from the live set, the rows that opened them from the log.
 * While the cache is down the count comes from the log too (the set is only its copy), so the
 * page keeps working through a Redis outage instead of failing with a 500.
 */
import type { ActiveAlertStore } from './active-alerts.store.js';
import type { AlertLogRepository } from './alert-log.repository.js';
import type { ActiveAlerts } from './active-alerts.schemas.js';

export class ActiveAlertsService {
  constructor(
    private readonly repo: AlertLogRepository,
    private readonly store: ActiveAlertStore,
  ) {}

  async list(limit = 50): Promise<ActiveAlerts> {
    const [active, rows] = await Promise.all([
      this.store.count().catch(() => this.repo.openCount()),
      this.repo.openRows(limit),
    ]);
    return {
      active,
      items: rows.map((r) => ({
        id: r.id,
        server_id: r.server_id,
        server_name: r.current_name ?? r.server_name ?? `#${r.server_id}`,
        alert_type: r.alert_type,
        value: r.value === null ? null : Number(r.value),
        since: r.created_at,
      })),
    };
  }
}
