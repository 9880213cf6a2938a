import type { Cache } from './cache.js';
import { MemoryCache } from './memory-cache.js';
import type { CacheLogger } from './cache-helpers.js';
import { RedisCache } from './redis-cache.js';

export type { Cache, Unsubscribe } from './cache.js';
export { MemoryCache, type MemoryCacheOptions } from './memory-cache.js';
export type { CacheLogger } from './cache-helpers.js';
export { RedisCache, CacheUnavailableError, type RedisCacheOptions } from './redis-cache.js';

export interface CreateCacheOptions {
  /** Key and channel prefix for Redis (default `fleet:`); ignored by the in-process cache. */
  prefix?: string;
  logger?: CacheLogger;
}

/** Picks the implementation from the URL scheme: `memory://`, `redis://` or `rediss://`. */
export function createCache(url: string, opts: CreateCacheOptions = {}): Cache {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url.trim())?.[1]?.toLowerCase();
  switch (scheme) {
    case 'memory':
      return new MemoryCache({ logger: opts.logger });
    case 'redis':
    case 'rediss':
      return new RedisCache(url, { prefix: opts.prefix, logger: opts.logger });
    default:
      // Only the scheme is echoed: the URL may carry a password.
      throw new Error(
        `Unsupported cache URL ${scheme ? `scheme "${scheme}://"` : '(no scheme)'}: expected memory://, redis:// or rediss://`,
      );
  }
}
