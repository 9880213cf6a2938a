import { randomUUID } from 'node:crypto';
import type { Cache, Unsubscribe } from './cache.js';
import { assertLockTtl, deliver, lockKey, ttlToMs, type CacheLogger, type Subscription } from './cache-helpers.js';

type Entry =
  | { type: 'string'; value: string; expiresAt: number | null }
  | { type: 'set'; members: Set<string>; expiresAt: number | null };

export interface MemoryCacheOptions {
  /** Receives errors thrown by subscriber handlers (they would otherwise crash the process). */
  logger?: Pick<CacheLogger, 'error'>;
  /** How often expired keys are purged even if nobody reads them; default 30 s. */
  sweepIntervalMs?: number;
  /**
   * The clock TTLs are measured on, in ms. Monotonic by default (performance.now): a TTL is a
   * duration, so a wall-clock jump must neither stretch it (a login lockout extended by an hour
   * when the clock is set back) nor cut it short.
   */
  clock?: () => number;
}

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

/**
 * Single-process Cache. Mirrors the Redis semantics the service relies on
 * (TTL reporting, INCR + EXPIRE NX, NX locks, async pub/sub) so that code tested
 * against `memory://` behaves the same on `redis://`.
 */
export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly logger?: Pick<CacheLogger, 'error'>;
  private closed = false;
  private readonly clock: () => number;

  constructor(opts: MemoryCacheOptions = {}) {
    this.logger = opts.logger;
    this.clock = opts.clock ?? (() => performance.now());
    this.sweepTimer = setInterval(() => this.sweep(), opts.sweepIntervalMs ?? 30_000);
    // The sweep is housekeeping only; it must never keep the process alive.
    this.sweepTimer.unref();
  }

  async get(key: string): Promise<string | null> {
    const entry = this.stringEntry(key);
    return entry ? entry.value : null;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.assertOpen();
    this.entries.set(key, { type: 'string', value, expiresAt: this.expiry(ttlToMs(ttlSeconds)) });
  }

  async setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean> {
    const ms = ttlToMs(ttlSeconds);
    if (this.live(key)) return false;
    this.entries.set(key, { type: 'string', value, expiresAt: this.expiry(ms) });
    return true;
  }

  async del(...keys: string[]): Promise<void> {
    this.assertOpen();
    for (const key of keys) this.entries.delete(key);
  }

  async ttl(key: string): Promise<number> {
    const entry = this.live(key);
    if (!entry) return -2;
    if (entry.expiresAt === null) return -1;
    return Math.ceil((entry.expiresAt - this.clock()) / 1000);
  }

  async incr(key: string, ttlSeconds?: number, opts: { refreshTtl?: boolean } = {}): Promise<number> {
    const ms = ttlToMs(ttlSeconds);
    const entry = this.stringEntry(key);
    const next = (entry ? Number(entry.value) : 0) + 1;
    if ((entry && !/^-?\d+$/.test(entry.value)) || !Number.isSafeInteger(next)) {
      throw new Error('ERR value is not an integer or out of range');
    }
    // EXPIRE NX semantics: a TTL is only attached when the key has none, so later
    // increments never extend a rate-limit window.
    const expiresAt = opts.refreshTtl && ms > 0 ? this.expiry(ms) : (entry?.expiresAt ?? this.expiry(ms));
    this.entries.set(key, { type: 'string', value: String(next), expiresAt });
    return next;
  }

  async decr(key: string): Promise<number> {
    const entry = this.stringEntry(key);
    if (!entry) return 0;
    if (!/^-?\d+$/.test(entry.value)) throw new Error('ERR value is not an integer or out of range');
    const current = Number(entry.value);
    if (current <= 0) return current;
    entry.value = String(current - 1);
    return current - 1;
  }

  async sadd(key: string, ...members: string[]): Promise<void> {
    if (members.length === 0) return;
    const entry = this.setEntry(key);
    if (entry) {
      for (const m of members) entry.members.add(m);
    } else {
      this.entries.set(key, { type: 'set', members: new Set(members), expiresAt: null });
    }
  }

  async srem(key: string, ...members: string[]): Promise<void> {
    const entry = this.setEntry(key);
    if (!entry) return;
    for (const m of members) entry.members.delete(m);
    // Redis deletes empty sets; keep ttl() answering -2 the same way.
    if (entry.members.size === 0) this.entries.delete(key);
  }

  async smembers(key: string): Promise<string[]> {
    return [...(this.setEntry(key)?.members ?? [])];
  }

  async sismember(key: string, member: string): Promise<boolean> {
    return this.setEntry(key)?.members.has(member) ?? false;
  }

  async sismemberMany(key: string, members: readonly string[]): Promise<boolean[]> {
    return this.sismemberManyNow(key, members);
  }

  sismemberManyNow(key: string, members: readonly string[]): boolean[] {
    const set = this.setEntry(key)?.members;
    return members.map((m) => set?.has(m) ?? false);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    const subs = this.channels.get(channel);
    if (!subs) return;
    for (const sub of subs) {
      // Asynchronous like a real broker: the publisher never runs handler code inline.
      setImmediate(() => {
        if (sub.active) {
          deliver(sub.handler, message, (err) => this.logger?.error({ err, channel }, 'Subscriber handler failed'));
        }
      });
    }
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const sub: Subscription = { handler, active: true };
    let subs = this.channels.get(channel);
    if (!subs) {
      subs = new Set();
      this.channels.set(channel, subs);
    }
    subs.add(sub);
    return async () => {
      sub.active = false;
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(sub);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertLockTtl(ttlMs);
    const key = lockKey(name);
    if (this.live(key)) return null;
    const token = randomUUID();
    this.entries.set(key, { type: 'string', value: token, expiresAt: this.clock() + ttlMs });
    return token;
  }

  async releaseLock(name: string, token: string): Promise<void> {
    const key = lockKey(name);
    const entry = this.live(key);
    if (entry?.type === 'string' && entry.value === token) this.entries.delete(key);
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    for (const subs of this.channels.values()) for (const sub of subs) sub.active = false;
    this.channels.clear();
    this.entries.clear();
  }

  private assertOpen(): void {
    // Same contract as RedisCache after quit: using a closed cache is a bug, so fail loudly.
    if (this.closed) throw new Error('Cache is closed');
  }

  private expiry(ms: number): number | null {
    return ms > 0 ? this.clock() + ms : null;
  }

  /** The entry if it exists and has not expired; expired entries are dropped on read. */
  private live(key: string): Entry | undefined {
    this.assertOpen();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private stringEntry(key: string): Extract<Entry, { type: 'string' }> | undefined {
    const entry = this.live(key);
    if (entry && entry.type !== 'string') throw new Error(WRONGTYPE);
    return entry;
  }

  private setEntry(key: string): Extract<Entry, { type: 'set' }> | undefined {
    const entry = this.live(key);
    if (entry && entry.type !== 'set') throw new Error(WRONGTYPE);
    return entry;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
