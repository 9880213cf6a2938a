/**
 * The admin row behind every authenticated request, kept in memory between requests: reading it
 * from SQLite cost as much as all the rest of a request's own work (the JWT is already memoised).
 *
 * Invalidation, not the clock, keeps it right: every write through AdminsRepository drops the row
 * here at once and announces it to the other workers over the cache's pub/sub, so a password
 * change (which revokes every earlier token) or a deleted admin takes effect on the next request.
 * Should that channel be down, no row is trusted for longer than MAX_AGE_MS, so revocation still
 * reaches every worker within a second. Misses are never cached.
 */
import type { Cache, Unsubscribe } from '../../adapters/cache/cache.js';
import { subscribeDurably, type RetryLogger } from '../../adapters/cache/durable-subscription.js';
import type { AdminRow } from '../../db/types.js';

export const ADMINS_CHANNEL = 'admins:changed';
export const MAX_AGE_MS = 1_000;

export interface AdminLookupDeps {
  findById(id: number): Promise<AdminRow | undefined>;
  cache: Cache;
  log: RetryLogger;
  now?: () => number;
}

export class AdminLookup {
  private readonly rows = new Map<number, { row: AdminRow; at: number }>();
  /** Bumped by every invalidation: a read that overlapped one must not store what it read. */
  private epoch = 0;
  private unsubscribe: Unsubscribe | null = null;
  private readonly listeners = new Set<(id: number | null) => void>();
  private readonly now: () => number;

  constructor(private readonly d: AdminLookupDeps) {
    this.now = d.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.unsubscribe = await subscribeDurably(this.d.cache, ADMINS_CHANNEL, (msg) => this.drop(Number(msg)), this.d.log);
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    this.rows.clear();
  }

  /** The row if it is in memory and fresh (read within MAX_AGE_MS, not invalidated since); no read. */
  peek(id: number): AdminRow | undefined {
    const hit = this.rows.get(id);
    return hit && this.now() - hit.at < MAX_AGE_MS ? hit.row : undefined;
  }

  async findById(id: number): Promise<AdminRow | undefined> {
    const fresh = this.peek(id);
    if (fresh) return fresh;
    const now = this.now();
    const epoch = this.epoch;
    const row = await this.d.findById(id);
    if (row && epoch === this.epoch) this.rows.set(id, { row, at: now });
    else if (!row) this.rows.delete(id);
    return row;
  }

  /** After a write to admin `id`: drop it here, then tell the other workers. Never throws. */
  async invalidate(id: number): Promise<void> {
    this.drop(id);
    try {
      await this.d.cache.publish(ADMINS_CHANNEL, String(id));
    } catch (err) {
      this.d.log.warn({ err, adminId: id }, 'could not announce an admin change to other workers');
    }
  }

  /**
   * Calls `listener` after every change to an admin, made here or announced by another process:
   * with its id, or null when any admin may have changed. What outlives a request (a live socket)
   * re-checks its token then.
   */
  onChange(listener: (id: number | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private drop(id: number): void {
    this.epoch++;
    // A malformed message clears everything: dropping too much only costs a query.
    const known = Number.isInteger(id);
    if (known) this.rows.delete(id);
    else this.rows.clear();
    for (const l of this.listeners) {
      try {
        l(known ? id : null);
      } catch (err) {
        this.d.log.warn({ err }, 'admin change listener failed');
      }
    }
  }
}
