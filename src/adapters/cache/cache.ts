/**
 * One cache interface for the whole service. `memory://` serves a single worker;
 * `redis://` is shared by every worker (settings, cancel flags, alert sets, locks, pub/sub).
 * All keys are namespaced by the implementation's prefix, so test runs never collide.
 */
export type Unsubscribe = () => Promise<void>;

export interface Cache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  /** ttlSeconds omitted or 0 = no expiry. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Set only when absent; true when it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean>;
  del(...keys: string[]): Promise<void>;
  /** Seconds left before expiry; -1 no expiry; -2 missing. */
  ttl(key: string): Promise<number>;
  /**
   * Increment a counter; the TTL is applied when the counter is created (a fixed window), or on
   * every increment with `refreshTtl` (the key then lives until it has been idle that long).
   * Returns the new value.
   */
  incr(key: string, ttlSeconds?: number, opts?: { refreshTtl?: boolean }): Promise<number>;
  /**
   * Takes one back from a positive counter, keeping its TTL; a missing (expired) key stays missing
   * rather than coming back as -1 with no expiry. Returns the new value (0 when there was none).
   */
  decr(key: string): Promise<number>;
  sadd(key: string, ...members: string[]): Promise<void>;
  srem(key: string, ...members: string[]): Promise<void>;
  smembers(key: string): Promise<string[]>;
  sismember(key: string, member: string): Promise<boolean>;
  /** `sismember` for several members in one call (one round trip): a flag per member, in order. */
  sismemberMany(key: string, members: readonly string[]): Promise<boolean[]>;
  /**
   * `sismemberMany` answered at once, without a promise: only a cache in this process has it (a
   * networked one must wait for its reply). The agent heartbeat path, thousands a second, uses it.
   */
  sismemberManyNow?(key: string, members: readonly string[]): boolean[];
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /**
   * Called each time the pub/sub connection comes back after it was lost: whatever was published
   * meanwhile never reached this process, so a subscriber re-reads what it follows from the
   * database. Optional: a cache that cannot lose its connection (in-process) never calls it.
   */
  onReconnect?(listener: () => void): () => void;
  /** A lock with TTL; returns a token when acquired, null when held by someone else. */
  acquireLock(name: string, ttlMs: number): Promise<string | null>;
  /** Releases only when the token still owns the lock. */
  releaseLock(name: string, token: string): Promise<void>;
  /** Throws when the backend is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
