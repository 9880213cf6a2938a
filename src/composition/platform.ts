/**
 * The platform every feature stands on, built once per process: database (migrated by the
 * process that owns it), cache, cipher, runtime settings (hot reload over the cache), audit, the
 * live event bus, bot notifications and the one SSH pool. Each piece that needs stopping adds
 * itself to `closers`, which run in reverse order.
 */
import type { Kysely } from 'kysely';
import { createCache } from '../adapters/cache/index.js';
import type { Cache } from '../adapters/cache/cache.js';
import { SshPool } from '../adapters/ssh/ssh-pool.js';
import type { SshContact } from '../adapters/ssh/types.js';
import type { AppConfig } from '../config/config.js';
import { createCipher, type Cipher } from '../core/crypto.js';
import type { Logger } from '../core/logger.js';
import { createDatabase, type DatabaseHandle, type Dialect } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/types.js';
import { AuditRepository } from '../platform/audit/audit.repository.js';
import { AuditService } from '../platform/audit/audit.service.js';
import { EventBus } from '../platform/events/event-bus.js';
import { IdempotencyRepository } from '../platform/idempotency/idempotency.repository.js';
import { IdempotencyService } from '../platform/idempotency/idempotency.service.js';
import { Metrics } from '../platform/metrics/metrics.js';
import { createNotifier, createNotifierDeps } from '../adapters/notifiers/channel-types.js';
import { systemResolver } from '../core/network.js';
import { GUARDED_TIMEOUT_MS } from '../adapters/http/guarded-request.js';
import { PinnedAgents } from '../adapters/http/pinned-agents.js';
import { NotificationService } from '../platform/notifications/notification.service.js';
import type { ChannelSource, DeliverableChannel } from '../platform/notifications/channel-contract.js';
import type { Notifier } from '../adapters/notifiers/notifier.js';
import type { DeliveryOptions } from '../platform/notifications/outbox-delivery.js';
import { OutboxRepository } from '../platform/notifications/outbox.repository.js';
import { readServerTags } from '../platform/notifications/delivery-feature.js';
import { newLeaseOwner } from '../platform/leases.js';
import { RuntimeSettings } from '../platform/settings/runtime-settings.js';
import { SecretSettings } from '../platform/settings/secret-settings.js';
import { SettingsRepository } from '../platform/settings/settings.repository.js';

export interface Platform {
  db: Kysely<Database>;
  dialect: Dialect;
  cache: Cache;
  cipher: Cipher;
  settings: RuntimeSettings;
  secrets: SecretSettings;
  audit: AuditService;
  events: EventBus;
  notifications: NotificationService;
  outbox: OutboxRepository;
  /** Idempotency-Key handling of the routes that start work. */
  idempotency: IdempotencyService;
  /**
   * Host keys first seen by the pool are pinned through `onHostKeyPinned`, and every contact's
   * outcome goes to `onContact` (both answered by the servers feature).
   */
  ssh: SshPool;
  /** The figures of `GET /metrics`. */
  metrics: Metrics;
}

/** The PostgreSQL pool is sized from stored settings when present, else from the environment. */
async function openDatabase(config: AppConfig, migrate: boolean, log: Logger): Promise<DatabaseHandle> {
  let handle = createDatabase(config.databaseUrl, { poolSize: config.dbPoolSize, maxOverflow: config.dbMaxOverflow });
  if (migrate) {
    const applied = await migrateToLatest(handle.db);
    if (applied.length) log.info({ applied }, 'database migrations applied');
  }
  if (handle.dialect === 'postgres') {
    const repo = new SettingsRepository(handle.db);
    const size = Number((await repo.get('db_pool_size'))?.value ?? Number.NaN);
    const overflow = Number((await repo.get('db_max_overflow'))?.value ?? Number.NaN);
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

/** The channels module's source and the adapters' factory, once merged (see ComposeOptions). */
export interface NotificationChannelParts {
  channels?: ChannelSource;
  createNotifier?: (channel: DeliverableChannel) => Notifier;
  /** Retry, rate-limit and polling knobs (benchmarks raise the rate limit to time the mechanics). */
  delivery?: Partial<DeliveryOptions>;
}

export async function buildPlatform(
  config: AppConfig,
  log: Logger,
  migrate: boolean,
  closers: Array<() => Promise<void> | void>,
  pinHostKey: (serverId: number, fingerprint: string) => Promise<void>,
  onSshContact: (serverId: number, outcome: SshContact) => void,
  channelParts: NotificationChannelParts = {},
): Promise<Platform> {
  const handle = await openDatabase(config, migrate, log);
  closers.push(() => handle.destroy());
  const cache = createCache(config.cacheUrl, { prefix: config.cachePrefix, logger: log });
  closers.push(() => cache.close());
  const cipher = createCipher(config.encryptionKey);

  const settings = new RuntimeSettings(new SettingsRepository(handle.db), cache, log);
  await settings.load();
  await settings.start();
  closers.push(() => settings.stop());
  const secrets = new SecretSettings(settings, cipher, log);

  const audit = new AuditService(new AuditRepository(handle.db), log);
  const events = new EventBus(cache, log);
  await events.start();
  closers.push(() => events.stop());
  const metrics = new Metrics();
  const outbox = new OutboxRepository(handle.db);
  // Channels that deliver often keep their connection (the target is still checked every time).
  const channelAgents = new PinnedAgents({ connectTimeoutMs: GUARDED_TIMEOUT_MS });
  closers.push(() => channelAgents.close());
  const channelNotifiers = new WeakMap<DeliverableChannel, { allowPrivate: boolean; notifier: Notifier }>();
  // The channels themselves are connected once the channels module is built (compose.ts).
  const notifications = new NotificationService({
    settings, secrets, apiBase: config.messengerApiBase, log, metrics, outbox, owner: newLeaseOwner(),
    serverTags: (id) => readServerTags(handle.db, id),
    channels: channelParts.channels,
    createChannelNotifier:
      channelParts.createNotifier ??
      ((channel) => {
        // One notifier per version of a channel (the channels module hands out the same object
        // until the row changes) and per state of the private-target rule, which is read every time.
        const allowPrivate = settings.getBool('notify_allow_private_targets');
        const held = channelNotifiers.get(channel);
        if (held?.allowPrivate === allowPrivate) return held.notifier;
        const notifier = createNotifier(channel, createNotifierDeps({ resolve: systemResolver, allowPrivate, agents: channelAgents }));
        channelNotifiers.set(channel, { allowPrivate, notifier });
        return notifier;
      }),
    delivery: channelParts.delivery,
  });
  closers.push(() => notifications.stopDelivery());

  // Three unanswered keepalives within the stall timeout: a silent connection is dropped by then.
  const keepaliveIntervalMs = Math.ceil((config.sshStallTimeoutS * 1000) / 3);
  const ssh = new SshPool({ logger: log, onHostKeyPinned: pinHostKey, onContact: onSshContact, keepaliveIntervalMs });
  closers.push(() => ssh.closeAll());
  const idempotency = new IdempotencyService({ repo: new IdempotencyRepository(handle.db) });
  return { db: handle.db, dialect: handle.dialect, cache, cipher, settings, secrets, audit, events, notifications, outbox, idempotency, ssh, metrics };
}
