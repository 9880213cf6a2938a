/**
 * Watches the database and the cache and tells the admins when either goes away or comes back
 * (notify on a change of state only). With several workers each watches, and a short-lived claim
 * lets only the first worker send a given notice: claimed in the cache for database notices and
 * in the database for cache notices (each in whichever store is not the one in trouble, the
 * other when that is down too). A cache that comes back may have lost its keys (a Redis
 * restart), so the active alert set is rebuilt then, and whenever a marker key has vanished.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { NotificationEvent } from '../../platform/notifications/notification-events.js';

export const HEALTH_INTERVAL_MS = 15_000;
const PROBE_TIMEOUT_MS = 5_000;

export type Component = 'db' | 'cache';

export interface HealthWatcherDeps {
  pingDb: () => Promise<unknown>;
  cache: Cache;
  notify: (event: NotificationEvent) => Promise<unknown>;
  log: Logger;
  systemName: () => string;
  onCacheRestored?: () => Promise<unknown>;
  /** A database-backed claim (see NoticeClaimsRepository); without it cache notices are not de-duplicated. */
  claimInDb?: (key: string, ttlSeconds: number) => Promise<boolean>;
}

/** Longer than the gap between workers noticing the same change (one probe interval). */
const CLAIM_TTL_S = 60;
/** Present in the cache while it keeps its keys; see cacheWasEmptied. */
const CACHE_MARKER = 'health:cache-marker';


async function probe(fn: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export class HealthWatcher {
  private readonly up: Record<Component, boolean> = { db: true, cache: true };
  private loop: Periodic | null = null;
  /** Whether this watcher has seen its marker in the cache (see cacheWasEmptied). */
  private markerSet = false;

  constructor(private readonly d: HealthWatcherDeps) {}

  start(intervalMs = HEALTH_INTERVAL_MS): void {
    this.loop ??= every(intervalMs, () => this.check(), (err) => this.d.log.warn({ err }, 'health check failed'));
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  /** One round; returns the components whose state changed. */
  async check(): Promise<Array<{ component: Component; up: boolean }>> {
    const [db, cache] = await Promise.all([probe(this.d.pingDb), probe(() => this.d.cache.ping())]);
    const changes: Array<{ component: Component; up: boolean }> = [];
    for (const [component, up] of [['db', db], ['cache', cache]] as const) {
      if (this.up[component] === up) continue;
      this.up[component] = up;
      changes.push({ component, up });
      this.d.log[up ? 'info' : 'warn']({ component }, up ? 'connection restored' : 'connection lost');
      await this.announce(component, up, { db, cache });
    }
    if (changes.some((c) => c.component === 'cache' && c.up) || (cache && (await this.cacheWasEmptied()))) {
      await this.d.onCacheRestored?.().catch((err: unknown) =>
        this.d.log.warn({ err }, 'could not rebuild the active alert set after the cache came back'),
      );
    }
    return changes;
  }

  /**
   * True when the cache lost its keys since the marker was first set (a restart quicker than one
   * probe interval looks "up" both times): the marker, a key without expiry, is gone then. The
   * first setting only establishes it (the process rebuilt the set when it started).
   */
  private async cacheWasEmptied(): Promise<boolean> {
    const created = await this.d.cache.setIfAbsent(CACHE_MARKER, '1').catch(() => null);
    if (created === null) return false;
    const emptied = created && this.markerSet;
    this.markerSet = true;
    return emptied;
  }

  private async announce(component: Component, up: boolean, reachable: Record<Component, boolean>): Promise<void> {
    if (!(await this.firstToClaim(`health:notice:${component}:${up ? 'up' : 'down'}`, component, reachable))) return;
    void this.d.notify({ kind: 'infrastructure', component, up, systemName: this.d.systemName() });
  }

  /** True when this worker should send the notice; a store that fails to answer means "send". */
  private async firstToClaim(key: string, about: Component, reachable: Record<Component, boolean>): Promise<boolean> {
    const order: Component[] = about === 'cache' ? ['db', 'cache'] : ['cache', 'db'];
    const store = order.find((s) => reachable[s] && (s === 'cache' || this.d.claimInDb));
    if (store === 'cache') return this.d.cache.setIfAbsent(key, '1', CLAIM_TTL_S).catch(() => true);
    if (store === 'db') return this.d.claimInDb!(key, CLAIM_TTL_S).catch(() => true);
    return true;
  }
}
