/**
 * Watches the database and the cache and tells the admins when either goes away or comes back
 * (notify on a change of state only). With several workers each watches; while the cache is up
 * a short-lived cache key lets only the first worker send a given notice. A cache that comes
 * back may have lost its keys (a Redis restart), so the active alert set is rebuilt then.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import type { NotificationKind } from '../messenger/notification.service.js';
import { escapeHtml } from './alert-messages.js';

export const HEALTH_INTERVAL_MS = 15_000;
const PROBE_TIMEOUT_MS = 5_000;

export type Component = 'db' | 'cache';

export interface HealthWatcherDeps {
  pingDb: () => Promise<unknown>;
  cache: Cache;
  notify: (kind: NotificationKind, html: string) => Promise<unknown>;
  log: Logger;
  systemName: () => string;
  onCacheRestored?: () => Promise<unknown>;
}

const LABEL: Record<Component, string> = { db: 'Database', cache: 'Cache' };

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
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: HealthWatcherDeps) {}

  start(intervalMs = HEALTH_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.check().catch((err: unknown) => this.d.log.warn({ err: String(err) }, 'health check failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
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
      await this.announce(component, up, cache);
    }
    if (changes.some((c) => c.component === 'cache' && c.up)) {
      await this.d.onCacheRestored?.().catch((err: unknown) =>
        this.d.log.warn({ err: String(err) }, 'could not rebuild the active alert set after the cache came back'),
      );
    }
    return changes;
  }

  private async announce(component: Component, up: boolean, cacheUp: boolean): Promise<void> {
    if (cacheUp) {
      const first = await this.d.cache
        .setIfAbsent(`health:notice:${component}:${up ? 'up' : 'down'}`, '1', 60)
        .catch(() => true);
      if (!first) return;
    }
    const name = escapeHtml(this.d.systemName());
    const html = up
      ? `✅ <b>${LABEL[component]} connection restored</b> (${name})`
      : `⚠️ <b>${LABEL[component]} connection lost</b> (${name}): the service cannot reach its ${component === 'db' ? 'database' : 'cache'}`;
    void this.d.notify(component === 'db' ? 'system_db' : 'system_cache', html);
  }
}
