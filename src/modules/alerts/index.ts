/**
 * Monitoring: the alert engine and its active set (in the cache, shared by processes, rebuilt
 * from the alert log), alert history (`/api/alert-history`), the offline detector and the health
 * watcher (database and cache outages, the restart notice). Heartbeats come from the agent module.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import { pingDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import { activeAlertsRoutes } from './active-alerts.routes.js';
import { ActiveAlertsService } from './active-alerts.service.js';
import { ActiveAlertStore } from './active-alerts.store.js';
import { AlertEngine } from './alert-engine.service.js';
import { alertHistoryRoutes } from './alert-history.routes.js';
import { AlertHistoryService } from './alert-history.service.js';
import { AlertLogRepository } from './alert-log.repository.js';
import { HealthWatcher } from './health-watcher.js';
import { NoticeClaimsRepository } from './notice-claims.repository.js';
import { OfflineDetector } from './offline-detector.js';
import type { ServerStatusStore } from '../servers/index.js';

export type { ActiveAlertsService, ActiveAlertStore, AlertEngine, AlertHistoryService, HealthWatcher, OfflineDetector };
export type { Reading } from './alert-engine.service.js';
export type { AlertType } from './alert-messages.js';

export interface AlertsModuleDeps {
  db: Kysely<Database>;
  cache: Cache;
  settings: RuntimeSettings;
  notifications: Pick<NotificationService, 'notify'>;
  events: Pick<EventBus, 'publish'>;
  log: Logger;
  version: string;
  /** Wall clock in ms; tests move it. */
  now: () => number;
  /** The agent side: write buffered heartbeats before a check; told which servers went offline. */
  heartbeats: { flush(): Promise<void>; markOffline(ids: number[]): void };
  /** The servers module's status columns: only that module writes `servers`. */
  serverStatus: ServerStatusStore;
}

export function createAlertsModule(d: AlertsModuleDeps) {
  const { log, now } = d;
  const systemName = () => d.settings.get('system_name')?.trim() || 'Fleet Admin';
  const repo = new AlertLogRepository(d.db);
  const store = new ActiveAlertStore(d.cache);
  const engine = new AlertEngine({ repo, store, settings: d.settings, notifications: d.notifications, events: d.events, log });
  const history = new AlertHistoryService({ repo, store, now, log });
  const active = new ActiveAlertsService(repo, store);
  const offline = new OfflineDetector({
    repo: d.serverStatus,
    engine,
    store,
    cache: d.cache,
    log,
    now,
    beforeCheck: () => d.heartbeats.flush(),
    onOffline: (ids) => d.heartbeats.markOffline(ids),
  });
  const claims = new NoticeClaimsRepository(d.db);
  const health = new HealthWatcher({
    pingDb: () => pingDatabase(d.db),
    cache: d.cache,
    notify: (event) => d.notifications.notify(event),
    log,
    systemName,
    onCacheRestored: () => engine.rebuild(),
    claimInDb: (key, ttl) => claims.claim(key, ttl),
  });
  const feature: Feature = {
    name: 'alerts',
    routes: [mount('/api/alert-history', activeAlertsRoutes, { active }), mount('/api/alert-history', alertHistoryRoutes, { history })],
    perProcess: {
      async start() {
        try {
          await engine.rebuild();
        } catch (err) {
          log.warn({ err }, 'could not rebuild the active alert set at start');
        }
      },
      stop() {},
    },
    // One notice per start of the process that owns background work, not one per HTTP worker.
    onBoot: async () => {
      void d.notifications.notify({ kind: 'restart', systemName: systemName(), version: d.version });
    },
    background: {
      start() {
        offline.start();
        health.start();
      },
      stop: async () => {
        await Promise.all([offline.stop(), health.stop()]);
      },
    },
  };
  return { store, engine, history, active, offline, health, now, feature };
}
