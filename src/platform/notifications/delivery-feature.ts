/**
 * Notification delivery as a feature. The delivery loop runs in every process that owns
 * background work (`delivers`), whether or not the periodic sweeps are switched on: it is the
 * second half of every notification, not a sweep (several processes may each run one: claims
 * are leased per row). Pruning old rows is a sweep. Delivered and failed rows are kept
 * `OUTBOX_RETENTION_MS` for inspection.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { Database } from '../../db/types.js';
import type { Feature } from '../feature.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NotificationService } from './notification.service.js';
import type { OutboxRepository } from './outbox.repository.js';

export const OUTBOX_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export function notificationDeliveryFeature(d: {
  notifications: NotificationService;
  outbox: OutboxRepository;
  metrics: Metrics;
  log: Logger;
  now: () => number;
  delivers: boolean;
}): Feature {
  d.metrics.gauge('fleet_notification_outbox_depth', 'Notification outbox rows still to deliver', () => d.outbox.depth());
  let prune: Periodic | null = null;
  const pruneOnce = async () => {
    const n = await d.outbox.prune(new Date(d.now() - OUTBOX_RETENTION_MS).toISOString());
    if (n > 0) d.log.info({ rows: n }, 'old notification outbox rows pruned');
  };
  return {
    name: 'notification-delivery',
    perProcess: {
      start() {
        if (d.delivers) d.notifications.startDelivery();
      },
      stop: () => d.notifications.stopDelivery(),
    },
    background: {
      start() {
        prune = every(PRUNE_EVERY_MS, pruneOnce, (err) => d.log.warn({ err }, 'notification outbox pruning failed'));
      },
      async stop() {
        await prune?.stop();
      },
    },
  };
}

/** A server's tags (a JSON array in `servers.tags`), for routing to channels that filter by tag. */
export async function readServerTags(db: Kysely<Database>, serverId: number): Promise<string[]> {
  const row = await db.selectFrom('servers').select('tags').where('id', '=', serverId).executeTakeFirst();
  try {
    const v: unknown = JSON.parse(row?.tags ?? '[]');
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
