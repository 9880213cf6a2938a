/**
 * Monitoring as one unit in the container (`c.alerts`): the alert engine and its active set,
 * alert history, the offline detector, the health watcher, and the agent side (tokens,
 * heartbeats, installation). `now` is injectable so tests can move the clock.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { AppConfig } from '../../config.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { pingDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { AgentInstaller } from '../agent/agent-installer.service.js';
import { AgentRepository } from '../agent/agent.repository.js';
import { AgentService } from '../agent/agent.service.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import type { ServersService } from '../servers/servers.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import { ActiveAlertStore } from './active-alerts.store.js';
import { AlertEngine } from './alert-engine.service.js';
import { AlertHistoryService } from './alert-history.service.js';
import { AlertLogRepository } from './alert-log.repository.js';
import { escapeHtml } from './alert-messages.js';
import { HealthWatcher } from './health-watcher.js';
import { NoticeClaimsRepository } from './notice-claims.repository.js';
import { OfflineDetector } from './offline-detector.js';
import { ServerStatusRepository } from './server-status.repository.js';

export interface MonitoringDeps {
  config: AppConfig;
  log: Logger;
  db: Kysely<Database>;
  cache: Cache;
  settings: RuntimeSettings;
  notifications: Pick<NotificationService, 'notify'>;
  events: Pick<EventBus, 'publish'>;
  audit: AuditService;
  servers: Pick<ServersService, 'get' | 'targetFromRow'>;
  ssh: Pick<SshPool, 'exec'>;
  /** Wall clock in ms (default Date.now). */
  now?: () => number;
}

export class Monitoring {
  readonly now: () => number;
  readonly store: ActiveAlertStore;
  readonly engine: AlertEngine;
  readonly history: AlertHistoryService;
  readonly offline: OfflineDetector;
  readonly health: HealthWatcher;
  readonly agent: AgentService;
  readonly installer: AgentInstaller;

  constructor(private readonly d: MonitoringDeps) {
    const now = (this.now = d.now ?? (() => Date.now()));
    const log = d.log;
    const repo = new AlertLogRepository(d.db);
    this.store = new ActiveAlertStore(d.cache);
    this.engine = new AlertEngine({ repo, store: this.store, settings: d.settings, notifications: d.notifications, events: d.events, log });
    this.history = new AlertHistoryService({ repo, store: this.store, now, log });
    this.agent = new AgentService({
      repo: new AgentRepository(d.db),
      cache: d.cache,
      engine: this.engine,
      servers: d.servers,
      audit: d.audit,
      log,
      now,
    });
    this.installer = new AgentInstaller({ agent: this.agent, servers: d.servers, ssh: d.ssh, settings: d.settings, audit: d.audit, log });
    this.offline = new OfflineDetector({
      repo: new ServerStatusRepository(d.db),
      engine: this.engine,
      store: this.store,
      cache: d.cache,
      log,
      now,
      beforeCheck: () => this.agent.flushHeartbeats(),
      onOffline: (ids) => this.agent.setStatus(ids, 'offline'),
    });
    const claims = new NoticeClaimsRepository(d.db);
    this.health = new HealthWatcher({
      pingDb: () => pingDatabase(d.db),
      cache: d.cache,
      notify: (kind, html) => d.notifications.notify(kind, html),
      log,
      systemName: () => this.systemName(),
      onCacheRestored: () => this.engine.rebuild(),
      claimInDb: (key, ttl) => claims.claim(key, ttl),
    });
  }

  async start(): Promise<void> {
    await this.agent.start();
    try {
      await this.engine.rebuild();
    } catch (err) {
      this.d.log.warn({ err: errorMessage(err) }, 'could not rebuild the active alert set at start');
    }
    if (this.d.config.bootstrap) {
      const html = `🔄 <b>${escapeHtml(this.systemName())}</b> started (version ${escapeHtml(this.d.config.version)})`;
      void this.d.notifications.notify('restart', html);
    }
    if (this.d.config.backgroundJobs) {
      this.offline.start();
      this.health.start();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([this.offline.stop(), this.health.stop()]);
    await this.agent.stop();
  }

  private systemName(): string {
    return this.d.settings.get('system_name')?.trim() || 'Fleet Admin';
  }
}
