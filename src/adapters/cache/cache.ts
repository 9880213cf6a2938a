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
  /** Increment a counter; the TTL is applied when the counter is created. Returns the new value. */
  incr(key: string, ttlSeconds?: number): Promise<number>;
  sadd(key: string, ...members: string[]): Promise<void>;
  srem(key: string, ...members: string[]): Promise<void>;
  smembers(key: string): Promise<string[]>;
  sismember(key: string, member: string): Promise<boolean>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /** A lock with TTL; returns a token when acquired, null when held by someone else. */
  acquireLock(name: string, ttlMs: number): Promise<string | null>;
  /** Releases only when the token still owns the lock. */
  releaseLock(name: string, token: string): Promise<void>;
  /** Throws when the backend is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
