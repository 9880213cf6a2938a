/** What both cache implementations share, so that `memory://` behaves exactly like `redis://`. */

type LogFn = (obj: Record<string, unknown>, msg: string) => void;
/** Pino-compatible (and console-compatible) logger subset. */
export type CacheLogger = Record<'warn' | 'error' | 'info', LogFn>;

/** `active` turns false on unsubscribe so queued deliveries are dropped. */
export interface Subscription {
  handler: (message: string) => void;
  active: boolean;
}

/** Lock keys share the keyspace with everything else, exactly like RedisCache does. */
export const lockKey = (name: string): string => `lock:${name}`;

/**
 * Turns an optional TTL in seconds into milliseconds (0 = no expiry).
 * Negative or non-finite values are programming errors, so they throw instead of
 * silently creating an immortal key.
 */
export function ttlToMs(ttlSeconds: number | undefined): number {
  if (ttlSeconds === undefined || ttlSeconds === 0) return 0;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
    throw new RangeError(`Invalid TTL ${ttlSeconds}: expected a non-negative number of seconds`);
  }
  return Math.max(1, Math.round(ttlSeconds * 1000));
}

/** Runs a subscriber handler so that neither a throw nor a rejected promise escapes as an uncaught error. */
export function deliver(handler: (message: string) => void, message: string, onError: (err: unknown) => void): void {
  try {
    const result: unknown = handler(message);
    if (result instanceof Promise) result.catch(onError);
  } catch (err) {
    onError(err);
  }
}

/** A lock TTL must be a positive whole number of milliseconds: anything else is a programming error. */
export function assertLockTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`Invalid lock TTL ${ttlMs}: expected a positive whole number of milliseconds`);
  }
}
