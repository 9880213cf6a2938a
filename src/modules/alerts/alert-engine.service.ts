/**
 * Opens and recovers alerts (a reading at or above its threshold opens one, below it recovers):
 * thresholds from the live settings, the active set in
 * the cache, a row in the alert log per transition, then a socket message and a bot notification.
 * Notifications are fire-and-forget: a slow or failing bot never delays or undoes an alert.
 */
import type { Logger } from '../../core/logger.js';
import type { AlertRow } from '../../db/types.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { NotificationEvent } from '../../platform/notifications/notification-events.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { ActiveAlertStore } from './active-alerts.store.js';
import type { AlertLogRepository } from './alert-log.repository.js';
import {
  MAX_DRIFT_S, METRIC_TYPES, alertEvent, recoveryEvent, type AlertContext, type AlertType,
} from './alert-messages.js';

export interface MonitoredServer {
  id: number;
  name: string;
}

export interface Reading {
  cpu: number;
  mem: number;
  disk: number;
  /** Agent clock, unix seconds. */
  ts: number;
  load?: number;
  uptime?: number;
}

export interface AlertEngineDeps {
  repo: AlertLogRepository;
  store: ActiveAlertStore;
  settings: RuntimeSettings;
  notifications: Pick<NotificationService, 'notify'>;
  events: Pick<EventBus, 'publish'>;
  log: Logger;
}

export const DEFAULT_THRESHOLD = 90;
export const DEFAULT_HEARTBEAT_TIMEOUT_S = 90;

export class AlertEngine {
  /** Parsed once per setting change, not once per heartbeat. */
  private thresholds: Record<string, number> | null = null;

  constructor(private readonly d: AlertEngineDeps) {
    d.settings.onChange((key) => {
      if (key.endsWith('_alert_threshold')) this.thresholds = null;
    });
  }

  threshold(type: (typeof METRIC_TYPES)[number]): number {
    if (!this.thresholds) {
      this.thresholds = {};
      for (const t of METRIC_TYPES) this.thresholds[t] = this.d.settings.getInt(`${t}_alert_threshold`, DEFAULT_THRESHOLD);
    }
    return this.thresholds[type];
  }

  heartbeatTimeoutS(): number {
    return Math.min(600, Math.max(10, this.d.settings.getInt('heartbeat_timeout', DEFAULT_HEARTBEAT_TIMEOUT_S)));
  }

  activeTypes(serverId: number): Promise<Set<AlertType>> {
    return this.d.store.typesFor(serverId);
  }

  /** `activeTypes` without a promise when the cache is in this process; undefined when it must be awaited. */
  activeTypesNow(serverId: number): Set<AlertType> | undefined {
    return this.d.store.typesForNow(serverId);
  }

  /**
   * One heartbeat against the server's active set: only a crossing touches the database, and
   * without one nothing is awaited (the common case on the hot path returns undefined).
   * `active` comes from `activeTypes` (read once by the caller). Crossings in one heartbeat are
   * written one after another so the history lists them in a stable order (metric order).
   */
  evaluate(server: MonitoredServer, r: Reading, active: Set<AlertType>, nowMs: number): Promise<unknown> | undefined {
    const jobs: Array<() => Promise<unknown>> = [];
    if (active.has('offline')) jobs.push(() => this.recover(server, 'offline', null, nowMs));
    for (const type of METRIC_TYPES) {
      const limit = this.threshold(type);
      if (r[type] >= limit) {
        if (!active.has(type)) jobs.push(() => this.open(server, type, r[type], nowMs, { limit }));
      } else if (active.has(type)) {
        jobs.push(() => this.recover(server, type, r[type], nowMs));
      }
    }
    const drift = r.ts - nowMs / 1000;
    const abs = Math.round(Math.abs(drift));
    if (Math.abs(drift) > MAX_DRIFT_S) {
      if (!active.has('time_drift')) jobs.push(() => this.open(server, 'time_drift', abs, nowMs, { drift }));
    } else if (active.has('time_drift')) {
      jobs.push(() => this.recover(server, 'time_drift', abs, nowMs));
    }
    return jobs.length ? runInOrder(jobs) : undefined;
  }

  /** Opens an alert unless one is active for this server and type; true when this call opened it. */
  async open(
    server: MonitoredServer,
    type: AlertType,
    value: number | null,
    nowMs: number,
    extra: Omit<AlertContext, 'value'> = {},
  ): Promise<boolean> {
    return this.transition(server, type, async () => {
      if (await this.d.store.isActive(server.id, type)) return null;
      // The log is the truth, the set only its copy: a Redis restarted without persistence comes
      // back empty, and opening again from that would notify the same breach twice.
      if (await this.d.repo.newestIsOpen(server.id, type)) {
        await this.d.store.add(server.id, type);
        return null;
      }
      const row = await this.d.repo.insert(this.row(server, type, value, false, nowMs));
      await this.d.store.add(server.id, type);
      return { row, event: alertEvent(type, { id: server.id, name: server.name }, { value, ...extra }) };
    });
  }

  /** Closes the active alert with a recovery row (`value` the reading that recovered). */
  async recover(server: MonitoredServer, type: AlertType, value: number | null, nowMs: number): Promise<boolean> {
    return this.transition(server, type, async () => {
      if (!(await this.d.store.isActive(server.id, type))) return null;
      const row = await this.d.repo.insert(this.row(server, type, value, true, nowMs));
      await this.d.store.remove(server.id, type);
      return { row, event: recoveryEvent(type, { id: server.id, name: server.name }, value) };
    });
  }

  /**
   * Re-creates the active set from the log: active when the newest row of a server+type is not a
   * recovery. Each difference is re-checked under its lock, so a transition racing the rebuild
   * on another worker wins.
   */
  async rebuild(): Promise<{ added: number; removed: number }> {
    const open = await this.d.repo.openKeys();
    const current = await this.d.store.members();
    const want = new Set(open.map((k) => `${k.server_id}:${k.alert_type}`));
    const have = new Set(current.map((k) => `${k.serverId}:${k.type}`));
    let added = 0;
    let removed = 0;
    for (const k of open) {
      if (have.has(`${k.server_id}:${k.alert_type}`)) continue;
      await this.d.store.withLock(k.server_id, k.alert_type, async () => {
        if (await this.d.repo.newestIsOpen(k.server_id, k.alert_type)) {
          await this.d.store.add(k.server_id, k.alert_type);
          added++;
        }
      });
    }
    const extra = current.filter((k) => !want.has(`${k.serverId}:${k.type}`));
    const existing = await this.d.repo.existingServers([...new Set(extra.map((k) => k.serverId))]);
    for (const k of extra) {
      await this.d.store.withLock(k.serverId, k.type, async () => {
        if (!existing.has(k.serverId) || !(await this.d.repo.newestIsOpen(k.serverId, k.type))) {
          await this.d.store.remove(k.serverId, k.type);
          removed++;
        }
      });
    }
    if (added || removed) this.d.log.info({ added, removed }, 'active alert set rebuilt from the alert log');
    return { added, removed };
  }

  /** Drops live alerts of servers deleted since (they would stay active forever). */
  async pruneDeleted(): Promise<number> {
    const members = await this.d.store.members();
    if (members.length === 0) return 0;
    const existing = await this.d.repo.existingServers([...new Set(members.map((k) => k.serverId))]);
    const gone = members.filter((k) => !existing.has(k.serverId));
    for (const k of gone) await this.d.store.remove(k.serverId, k.type);
    return gone.length;
  }

  private async transition(
    server: MonitoredServer,
    type: AlertType,
    change: () => Promise<{ row: AlertRow; event: NotificationEvent } | null>,
  ): Promise<boolean> {
    let done: { row: AlertRow; event: NotificationEvent } | null;
    try {
      done = await this.d.store.withLock(server.id, type, change);
    } catch (err) {
      this.d.log.warn({ serverId: server.id, type, err }, 'alert transition failed');
      return false;
    }
    if (!done) return false;
    this.announce(done.row, done.event);
    return true;
  }

  private announce(row: AlertRow, event: NotificationEvent): void {
    const recovery = Number(row.is_recovery) === 1;
    void this.d.events.publish({
      type: recovery ? 'recovery' : 'alert',
      id: row.id,
      server_id: row.server_id,
      server_name: row.server_name,
      alert_type: row.alert_type,
      value: row.value === null ? null : Number(row.value),
      created_at: row.created_at,
    });
    // Queues the notification without waiting for it; the service never rejects.
    void this.d.notifications.notify(event);
  }

  private row(server: MonitoredServer, type: AlertType, value: number | null, recovery: boolean, nowMs: number) {
    return {
      server_id: server.id,
      server_name: server.name,
      alert_type: type,
      value,
      is_recovery: recovery ? 1 : 0,
      created_at: new Date(nowMs).toISOString(),
    };
  }
}

/** Runs every job even when an earlier one fails (each crossing stands alone), then rethrows the first failure. */
async function runInOrder(jobs: Array<() => Promise<unknown>>): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const job of jobs) {
    try {
      await job();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
