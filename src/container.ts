/**
 * Builds the shared dependencies once per process and hands them to the modules explicitly
 * (no global singletons). Modules that others depend on expose their services here.
 */
import type { Kysely } from 'kysely';
import { createCache } from './adapters/cache/index.js';
import type { Cache } from './adapters/cache/cache.js';
import type { AppConfig } from './config.js';
import { createCipher, type Cipher } from './core/crypto.js';
import type { Logger } from './core/logger.js';
import { createDatabase, type DatabaseHandle, type Dialect } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { Database } from './db/types.js';
import { AdminLookup } from './modules/admins/admin-lookup.js';
import { AdminsRepository } from './modules/admins/admins.repository.js';
import { AdminsService } from './modules/admins/admins.service.js';
import { AuditRepository } from './platform/audit/audit.repository.js';
import { AuditService } from './platform/audit/audit.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { systemResolver, type HostResolver } from './core/network.js';
import { LoginGuard } from './modules/auth/login-guard.js';
import { TokenService } from './modules/auth/tokens.js';
import { bootstrapFirstStart } from './bootstrap.js';
import { EventBus } from './platform/events/event-bus.js';
import { RuntimeSettings } from './platform/settings/runtime-settings.js';
import { SettingsRepository } from './platform/settings/settings.repository.js';
import { SecretSettings } from './platform/settings/secret-settings.js';
import { NotificationService } from './platform/notifications/notification.service.js';
import { SshPool } from './adapters/ssh/ssh-pool.js';
import { PresetsRepository } from './modules/presets/presets.repository.js';
import { ServersRepository } from './modules/servers/servers.repository.js';
import { ServersService } from './modules/servers/servers.service.js';
import { SshKeyPresetsRepository } from './modules/ssh-key-presets/ssh-key-presets.repository.js';
import { StagingPaths } from './modules/staging/staging-paths.js';
import { createPushServices } from './modules/push/push.factory.js';
import type { PushService } from './modules/push/push.service.js';
import type { RetriesService } from './modules/retries/retries.service.js';
import type { ScriptsService } from './modules/scripts/scripts.service.js';
import type { SchedulesService } from './modules/schedules/schedules.service.js';
import { Monitoring } from './modules/alerts/monitoring.js';

export interface ContainerOptions {
  /** Host-name resolver for the login allowlist (tests inject one). */
  resolver?: HostResolver;
  /** Resolver for user-supplied outbound URLs (the allowlist subscription fetch); tests inject one. */
  fetchResolver?: HostResolver;
  /** Where the generated first-admin password is printed. */
  print?: (line: string) => void;
  /** Wall clock (ms) for monitoring: heartbeat times, alert rows, offline checks; tests inject one. */
  now?: () => number;
}

export interface Container {
  config: AppConfig;
  log: Logger;
  db: Kysely<Database>;
  dialect: Dialect;
  cache: Cache;
  cipher: Cipher;
  settings: RuntimeSettings;
  audit: AuditService;
  events: EventBus;
  tokens: TokenService;
  guard: LoginGuard;
  auth: AuthService;
  admins: AdminsService;
  adminsRepo: AdminsRepository;
  /** Admin notifications over the messenger bot: `notify(kind, html)`, gated by `notify_*`, never throws. */
  notifications: NotificationService;
  /** Resolves host names of user-supplied URLs before the SSRF checks. */
  fetchResolver: HostResolver;
  /** The one SSH connection pool: `ssh.exec(await servers.getTarget(id), argv)`. */
  ssh: SshPool;
  /** The fleet: `get(id)`, `list()`, `getTarget(id)` / `targetFromRow(row)` → SshTarget. */
  servers: ServersService;
  /** The staging prefix rule: `await staging.resolveInsideStaging(path)` → resolved path or 403. */
  staging: StagingPaths;
  /** The push engine: `start(actor, request)`, preview, cancel, batch history. */
  push: PushService;
  /** Retry jobs of failed pushes; `runDueRetries()` is what the background worker calls. */
  retries: RetriesService;
  /** Stored scripts; `runOn(actor, plan)` runs a script on servers over the pool. */
  scripts: ScriptsService;
  /** Push and script schedules; `runDue(now)` fires what is due (exactly once across workers). */
  schedules: SchedulesService;
  /** Monitoring: alert `engine`, alert `history`, `offline` detector, `health` watcher, `agent` heartbeats/tokens, `installer`. */
  alerts: Monitoring;
  /** Shut-down hooks run in reverse order of registration. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

/** The PostgreSQL pool is sized from stored settings when present, else from the environment. */
async function openDatabase(config: AppConfig, log: Logger): Promise<DatabaseHandle> {
  let handle = createDatabase(config.databaseUrl, { poolSize: config.dbPoolSize, maxOverflow: config.dbMaxOverflow });
  if (config.bootstrap) {
    const applied = await migrateToLatest(handle.db);
    if (applied.length) log.info({ applied }, 'database migrations applied');
  }
  if (handle.dialect === 'postgres') {
    const repo = new SettingsRepository(handle.db);
    const size = Number((await repo.get('db_pool_size'))?.value ?? NaN);
    const overflow = Number((await repo.get('db_max_overflow'))?.value ?? NaN);
    if (Number.isInteger(size) || Number.isInteger(overflow)) {
      await handle.destroy();
      handle = createDatabase(config.databaseUrl, {
        poolSize: Number.isInteger(size) ? size : config.dbPoolSize,
        maxOverflow: Number.isInteger(overflow) ? overflow : config.dbMaxOverflow,
      });
    }
  }
  return handle;
}

export async function createContainer(config: AppConfig, log: Logger, opts: ContainerOptions = {}): Promise<Container> {
  const closers: Array<() => Promise<void> | void> = [];
  const handle = await openDatabase(config, log);
  closers.push(() => handle.destroy());
  const cache = createCache(config.cacheUrl, { prefix: config.cachePrefix, logger: log });
  closers.push(() => cache.close());

  const cipher = createCipher(config.encryptionKey);
  const settings = new RuntimeSettings(new SettingsRepository(handle.db), cache, log);
  await settings.load();
  await settings.start();
  closers.push(() => settings.stop());

  const audit = new AuditService(new AuditRepository(handle.db), log);
  const events = new EventBus(cache, log);
  await events.start();
  closers.push(() => events.stop());

  const adminsRepo: AdminsRepository = new AdminsRepository(handle.db, (id) => adminLookup.invalidate(id));
  const adminLookup = new AdminLookup({ findById: (id) => adminsRepo.findById(id), cache, log, now: opts.now });
  await adminLookup.start();
  closers.push(() => adminLookup.stop());
  const tokens = new TokenService(config.secretKey);
  const guard = new LoginGuard(cache, settings, log, opts.resolver ?? systemResolver);
  const auth = new AuthService({ admins: adminsRepo, lookup: adminLookup, tokens, guard, audit, cipher, settings });
  const admins = new AdminsService(adminsRepo, audit);
  const notifications = new NotificationService({
    settings,
    secrets: new SecretSettings(settings, cipher, log),
    apiBase: config.messengerApiBase,
    log,
  });

  // Trust on first use: the pool reports a first-seen host key, the servers service pins it.
  const ssh: SshPool = new SshPool({
    logger: log,
    onHostKeyPinned: (serverId, fingerprint) => servers.pinHostKey(serverId, fingerprint),
  });
  closers.push(() => ssh.closeAll());
  const servers: ServersService = new ServersService({
    repo: new ServersRepository(handle.db),
    passwordPresets: new PresetsRepository(handle.db),
    sshKeyPresets: new SshKeyPresetsRepository(handle.db),
    cipher,
    audit,
    ssh,
    log,
  });

  const pushServices = createPushServices({
    db: handle.db, cache, ssh, servers, audit, events, notifications, log, stagingPrefix: config.stagingPrefix,
  });

  if (config.bootstrap) {
    await bootstrapFirstStart({ config, adminsRepo, settings, cipher, log, print: opts.print });
  }

  const alerts = new Monitoring({ config, log, db: handle.db, cache, settings, notifications, events, audit, servers, ssh, now: opts.now });
  await alerts.start();
  closers.push(() => alerts.stop());

  return {
    config,
    log,
    db: handle.db,
    dialect: handle.dialect,
    cache,
    cipher,
    settings,
    audit,
    events,
    tokens,
    guard,
    auth,
    admins,
    adminsRepo,
    notifications,
    fetchResolver: opts.fetchResolver ?? systemResolver,
    ssh,
    servers,
    staging: new StagingPaths(config.stagingPrefix),
    ...pushServices,
    alerts,
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (err) {
          log.warn({ err: String(err) }, 'error during shutdown');
        }
      }
    },
  };
}
