/**
 * The composition root: every service is built here, once per process, from explicit
 * dependencies, and each feature mounts its own routes with only its own services. The process
 * role decides what runs: migrations and the first start where the database is owned, boot
 * recovery and the background loops where background work is owned (see `ProcessRole`).
 * Nothing outside `src/app.ts` and `src/server.ts` imports this file.
 */
import { RsyncRunner, SpawnHelper } from '../adapters/rsync/index.js';
import type { AppConfig } from '../config/config.js';
import { InitialPasswordFile } from '../config/initial-password.js';
import type { Logger } from '../core/logger.js';
import { systemResolver, type HostResolver } from '../core/network.js';
import { pingDatabase } from '../db/database.js';
import { createAdminsModule } from '../modules/admins/index.js';
import { createAgentModule } from '../modules/agent/index.js';
import { createAlertsModule } from '../modules/alerts/index.js';
import { createAllowlistModule } from '../modules/allowlist/index.js';
import { createAuthModule } from '../modules/auth/index.js';
import { createDashboardModule } from '../modules/dashboard/index.js';
import { createHealthModule } from '../modules/health/index.js';
import { createMessengerModule } from '../modules/messenger/index.js';
import { createNotificationChannelsModule, type SendTest } from '../modules/notification-channels/index.js';
import { createPatrolModule } from '../modules/patrol/index.js';
import { createPresetsModule } from '../modules/presets/index.js';
import { createPushModule, createTargetClaims } from '../modules/push/index.js';
import { createRemoteModule } from '../modules/remote/index.js';
import { createRetriesModule } from '../modules/retries/index.js';
import { createSchedulesModule } from '../modules/schedules/index.js';
import { createScriptsModule } from '../modules/scripts/index.js';
import { createServersModule } from '../modules/servers/index.js';
import { createSshKeyPresetsModule } from '../modules/ssh-key-presets/index.js';
import { createStagingModule } from '../modules/staging/index.js';
import { createWallpapersModule } from '../modules/wallpapers/index.js';
import { auditRoutes } from '../platform/audit/audit.routes.js';
import { eventsRoutes } from '../platform/events/events.routes.js';
import { mount, type Feature } from '../platform/feature.js';
import { newLeaseOwner } from '../platform/leases.js';
import { dutiesOf, type ProcessRole } from '../platform/process-role.js';
import { settingsRoutes } from '../platform/settings/settings.routes.js';
import { SettingsService } from '../platform/settings/settings.service.js';
import { firstStart } from './first-start.js';
import { buildPlatform, type NotificationChannelParts } from './platform.js';
import { notificationDeliveryFeature } from '../platform/notifications/delivery-feature.js';
import { FeatureRunner } from './lifecycle.js';
import { metricsRoutes } from '../platform/metrics/metrics.routes.js';

export interface ComposeOptions {
  /** Host-name resolver for the login allowlist (tests inject one). */
  resolver?: HostResolver;
  /** Resolver for user-supplied outbound URLs (the allowlist subscription fetch); tests inject one. */
  fetchResolver?: HostResolver;
  /** Where the framed block with a generated first-admin password is written (default stderr). */
  print?: (text: string) => void;
  /** Wall clock (ms) for monitoring: heartbeat times, alert rows, offline checks; tests inject one. */
  now?: () => number;
  /** Sends one test message through a notification channel (tests inject one; the platform's delivery otherwise). */
  sendChannelTest?: SendTest;
  /**
   * Where notifications find channels and how a channel's notifier is built: by default the
   * channels module and the channel adapters; tests and benchmarks may inject stand-ins.
   */
  notificationChannels?: NotificationChannelParts;
}

export type Services = Awaited<ReturnType<typeof buildServices>>;

export interface Composition {
  role: ProcessRole;
  services: Services;
  features: Feature[];
  start(): Promise<void>;
  /** Stops what `start` started, then closes the platform (SSH pool, events, cache, database). */
  stop(): Promise<void>;
}

async function buildServices(config: AppConfig, log: Logger, role: ProcessRole, opts: ComposeOptions, closers: Array<() => Promise<void> | void>) {
  const duties = dutiesOf(role);
  const now = opts.now ?? (() => Date.now());
  const owner = newLeaseOwner();
  // Trust on first use: the pool reports a first-seen host key, the servers feature pins it; it
  // also records every contact's outcome as the server's SSH reachability.
  const platform = await buildPlatform(
    config, log, duties.migrate, closers,
    (id, fp) => servers.servers.pinHostKey(id, fp),
    (id, outcome) => servers.reachability.record(id, outcome),
    opts.notificationChannels,
  );
  const { db, cache, cipher, settings, secrets, audit, events, notifications, outbox, ssh, metrics } = platform;

  const initialPassword = new InitialPasswordFile(config.dataDir, config.adminUsername);
  const admins = createAdminsModule({ db, cache, audit, log, now });
  const auth = createAuthModule({
    db, admins: admins.repo, lookup: admins.lookup, cache, settings, audit, cipher, log,
    secretKey: config.secretKey, resolver: opts.resolver ?? systemResolver, firstRun: initialPassword,
  });
  const requireCurrentPassword = auth.auth.requireCurrentPassword.bind(auth.auth);
  const presets = createPresetsModule({ db, cipher, audit, requireCurrentPassword });
  const sshKeyPresets = createSshKeyPresetsModule({ db, cipher, audit, requireCurrentPassword });
  const servers = createServersModule({
    db, cipher, audit, ssh, log, settings, passwordPresets: presets.repo, sshKeyPresets: sshKeyPresets.repo,
    requireCurrentPassword: auth.auth.requireCurrentPassword.bind(auth.auth),
  });
  const staging = createStagingModule({
    prefix: config.stagingPrefix, audit, log, settings, zipMaxBytes: config.zipMaxBytes, zipMaxUncompressed: config.zipMaxUncompressed,
    uploadMaxBytes: config.uploadMaxBytes,
  });
  const remote = createRemoteModule({ servers: servers.servers, ssh, audit, staging: staging.paths, uploadMaxBytes: config.uploadMaxBytes });

  const spawner = new SpawnHelper();
  closers.push(() => spawner.close());
  const runner = new RsyncRunner({
    hostKeys: ssh, pinHostKey: (id, fp) => servers.servers.pinHostKey(id, fp), log, stallTimeoutSec: config.sshStallTimeoutS, spawner,
  });
  const claims = createTargetClaims(db, owner);
  const fleet = { servers: servers.servers, staging: staging.paths, runner, cache, audit, log, owner, db, claims, metrics };
  const retries = createRetriesModule(fleet);
  const push = createPushModule({ ...fleet, retries: retries.retries, events, notify: (e) => notifications.notify(e) });
  const scripts = createScriptsModule({ db, ssh, servers: servers.servers, audit, events, notifications, log, cache, owner });
  const schedules = createSchedulesModule({ db, push: push.push, scripts: scripts.scripts, staging: staging.paths, audit, log, cache, owner });

  const alerts = createAlertsModule({
    db, cache, settings, notifications, events, log, now, version: config.version,
    heartbeats: { flush: () => agent.agent.flushHeartbeats(), markOffline: (ids) => agent.agent.setStatus(ids, 'offline') },
    serverStatus: servers.serverStatus,
  });
  const agent = createAgentModule({ db, cache, engine: alerts.engine, servers: servers.servers, agentColumns: servers.agentColumns, ssh, settings, audit, log, now, metrics });

  const allowlist = createAllowlistModule({
    settings, cache, audit, log, resolver: opts.fetchResolver ?? systemResolver, allowPrivateFetch: config.allowPrivateFetch,
    listAllows: (ip) => auth.guard.listAllows(ip),
  });
  const patrol = createPatrolModule({ dataDir: config.dataDir, settings, secrets, audit, log });
  const notificationChannels = createNotificationChannelsModule({
    db, cipher, audit, settings, requireCurrentPassword, sendTest: opts.sendChannelTest ?? ((channel) => notifications.sendTest(channel)),
  });
  notifications.connectChannels(notificationChannels.channels);
  const messenger = createMessengerModule({ settings, secrets, audit, apiBase: config.messengerApiBase, requireCurrentPassword });
  const wallpapers = createWallpapersModule({
    dataDir: config.dataDir, sourceUrl: config.wallpaperSourceUrl, audit, log,
    resolver: opts.fetchResolver ?? systemResolver, allowPrivateFetch: config.allowPrivateFetch,
  });
  const dashboard = createDashboardModule({ fleet: servers.fleet, alerts: alerts.active, push: push.push, retries: retries.retries });
  const health = createHealthModule({ pingDb: () => pingDatabase(db), cache, version: config.version });

  const settingsService = new SettingsService({
    settings, secrets, audit, log, databaseUrl: config.databaseUrl, startedAt: new Date().toISOString(), syncPatrolEnv: patrol.syncEnv,
    requireCurrentPassword,
  });
  const platformFeature: Feature = {
    name: 'platform',
    routes: [
      mount('/api/audit', auditRoutes, { audit }),
      mount('/api/settings', settingsRoutes, { settings: settingsService }),
      mount('', metricsRoutes, { metrics }),
      mount('', eventsRoutes, {
        events,
        authenticate: (token: string) => auth.auth.authenticateSession(token),
        onAdminChanged: (listener) => admins.lookup.onChange(listener),
      }),
    ],
  };

  // Read at scrape time from whoever knows; each reading that fails only leaves itself out.
  metrics.gauge('fleet_open_alerts', 'Alerts open now (a threshold breached, or a server offline)', () => alerts.store.count());
  metrics.gauge('fleet_retry_jobs', 'Retry jobs by status', async () => {
    const byStatus: Record<string, number> = { pending: 0, running: 0, succeeded: 0, failed: 0 };
    for (const { status, n } of await retries.retries.countByStatus()) byStatus[status] = n;
    return byStatus;
  }, 'status');
  metrics.gauge('fleet_ssh_pool', 'The SSH pool now: open connections, open channels, operations waiting for a channel', () => {
    const s = ssh.stats();
    return { connections: s.connections, channels: s.activeChannels, waiting: s.queued };
  });
  metrics.gauge('fleet_ssh_connects', 'SSH connections the pool ever opened', () => ssh.stats().connectsTotal);

  if (duties.firstStart) await firstStart({ config, adminsRepo: admins.repo, settings, cipher, log, initialPassword, print: opts.print });

  // Registration order is route order: the settings area's fixed paths are registered before
  // nothing else claims them, and Fastify prefers static segments over `/api/settings/:key`.
  const features: Feature[] = [
    health.feature, auth.feature, admins.feature, platformFeature, servers.feature, presets.feature, sshKeyPresets.feature,
    agent.feature, alerts.feature, staging.feature, remote.feature, push.feature, retries.feature, scripts.feature,
    schedules.feature, allowlist.feature, messenger.feature, notificationChannels.feature, wallpapers.feature, patrol.feature, dashboard.feature,
    notificationDeliveryFeature({ notifications, outbox, metrics, log, now, delivers: duties.background }),
  ];
  return {
    config, log, owner, ...platform,
    admins: admins.admins, adminsRepo: admins.repo, auth: auth.auth, tokens: auth.tokens, guard: auth.guard,
    servers: servers.servers, reachability: servers.reachability, sshProbe: servers.probe, staging: staging.paths, push: push.push, claims, retries: retries.retries,
    scripts: scripts.scripts, scriptRuns: scripts.recovery, schedules: schedules.schedules,
    alerts: { store: alerts.store, engine: alerts.engine, history: alerts.history, offline: alerts.offline, health: alerts.health, now: alerts.now },
    agent: { agent: agent.agent, installer: agent.installer },
    allowlist: allowlist.allowlist, wallpapers: wallpapers.wallpapers, notificationChannels: notificationChannels.channels,
    features,
  };
}

export async function compose(config: AppConfig, role: ProcessRole, log: Logger, opts: ComposeOptions = {}): Promise<Composition> {
  const closers: Array<() => Promise<void> | void> = [];
  let services: Services;
  try {
    services = await buildServices(config, log, role, opts, closers);
  } catch (err) {
    await closeAll(closers, log);
    throw err;
  }
  const duties = dutiesOf(role);
  const runner = new FeatureRunner(services.features, log);
  return {
    role,
    services,
    features: services.features,
    start: () => runner.start({ background: duties.background, loops: duties.background && config.backgroundJobs }),
    async stop() {
      await runner.stop();
      await closeAll(closers, log);
    },
  };
}

async function closeAll(closers: Array<() => Promise<void> | void>, log: Logger): Promise<void> {
  for (const fn of closers.reverse()) {
    try {
      await fn();
    } catch (err) {
      log.warn({ err }, 'error during shutdown');
    }
  }
}
