import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { requireOnUse } from '../../core/require-on-use.js';
import type { Cache, Unsubscribe } from './cache.js';
import { assertLockTtl, deliver, lockKey, ttlToMs, type CacheLogger, type Subscription } from './cache-helpers.js';
import { Connection } from './redis-connection.js';

export interface RedisCacheOptions {
  /** Prepended to every key and channel; default `fleet:`. */
  prefix?: string;
  logger?: CacheLogger;
}

/** Thrown when a command could not run because Redis is unreachable; callers may degrade. */
export class CacheUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CacheUnavailableError';
  }
}

const COMMAND_TIMEOUT_MS = 5_000;

/** Reconnect forever, backing off linearly up to 2 s: an outage must never end the client. */
const reconnectDelay = (attempt: number): number => Math.min(attempt * 200, 2_000);

const RELEASE_LOCK_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// INCR + PEXPIRE only when the key has no TTL (= EXPIRE NX), in one atomic step.
// Lua instead of EXPIRE NX keeps Redis 6.2 (the oldest ioredis 6 supports) working.
const INCR_WITH_TTL_LUA = `
local v = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return v`;

const INCR_REFRESH_TTL_LUA = `
local v = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return v`;

// DECR only a live, positive counter: a plain DECR on an expired key would create an immortal -1.
const DECR_IF_POSITIVE_LUA = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local v = tonumber(raw)
if v == nil then return redis.error_reply('ERR value is not an integer or out of range') end
if v <= 0 then return v end
return redis.call('DECR', KEYS[1])`;

interface ChannelState {
  subs: Set<Subscription>;
  /** The SUBSCRIBE round-trip; later subscribers to the same channel share it. */
  confirmed: Promise<unknown>;
}

/** Shared Cache on Redis: settings, cancel flags, alert sets, locks and pub/sub for all workers. */
export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  private readonly prefix: string;
  private readonly logger?: CacheLogger;
  private readonly cmd: Connection;
  private sub: Connection | null = null;
  private readonly channels = new Map<string, ChannelState>();
  private readonly reconnectListeners = new Set<() => void>();
  private closed = false;

  constructor(url: string, opts: RedisCacheOptions = {}) {
    this.prefix = opts.prefix ?? 'fleet:';
    this.logger = opts.logger;
    const options: RedisOptions = {
      lazyConnect: false,
      // Fail fast while Redis is down instead of queueing requests behind an outage.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: reconnectDelay,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 5_000,
      connectionName: this.connectionName('cmd'),
    };
    // ioredis is loaded by the first Redis cache, never by the in-process default.
    const { Redis: RedisClient } = requireOnUse('ioredis') as typeof import('ioredis');
    this.cmd = new Connection(new RedisClient(url, options), 'command', this.logger);
  }

  get(key: string): Promise<string | null> {
    return this.exec((r) => r.get(this.key(key)));
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const ms = ttlToMs(ttlSeconds);
    const k = this.key(key);
    await this.exec((r) => (ms ? r.set(k, value, 'PX', ms) : r.set(k, value)));
  }

  async setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean> {
    const ms = ttlToMs(ttlSeconds);
    const k = this.key(key);
    const reply = await this.exec((r) => (ms ? r.set(k, value, 'PX', ms, 'NX') : r.set(k, value, 'NX')));
    return reply === 'OK';
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.exec((r) => r.del(...keys.map((k) => this.key(k))));
  }

  async ttl(key: string): Promise<number> {
    // PTTL rounded up: Redis' TTL rounds to nearest, which reports 0 for a live key.
    const ms = await this.exec((r) => r.pttl(this.key(key)));
    return ms < 0 ? ms : Math.ceil(ms / 1000);
  }

  async incr(key: string, ttlSeconds?: number, opts: { refreshTtl?: boolean } = {}): Promise<number> {
    const ms = ttlToMs(ttlSeconds);
    const k = this.key(key);
    if (!ms) return this.exec((r) => r.incr(k));
    if (opts.refreshTtl) return Number(await this.exec((r) => r.eval(INCR_REFRESH_TTL_LUA, 1, k, ms)));
    return Number(await this.exec((r) => r.eval(INCR_WITH_TTL_LUA, 1, k, ms)));
  }

  async decr(key: string): Promise<number> {
    return Number(await this.exec((r) => r.eval(DECR_IF_POSITIVE_LUA, 1, this.key(key))));
  }

  async sadd(key: string, ...members: string[]): Promise<void> {
    if (members.length === 0) return;
    await this.exec((r) => r.sadd(this.key(key), ...members));
  }

  async srem(key: string, ...members: string[]): Promise<void> {
    if (members.length === 0) return;
    await this.exec((r) => r.srem(this.key(key), ...members));
  }

  smembers(key: string): Promise<string[]> {
    return this.exec((r) => r.smembers(this.key(key)));
  }

  async sismember(key: string, member: string): Promise<boolean> {
    return (await this.exec((r) => r.sismember(this.key(key), member))) === 1;
  }

  /** One pipeline of SISMEMBER (SMISMEMBER would need Redis 6.2; this works on any version). */
  async sismemberMany(key: string, members: readonly string[]): Promise<boolean[]> {
    if (members.length === 0) return [];
    const k = this.key(key);
    const replies = await this.exec((r) => r.pipeline(members.map((m) => ['sismember', k, m])).exec());
    if (!replies) throw new CacheUnavailableError('Redis is unavailable');
    return replies.map(([err, hit]) => {
      if (err) throw err;
      return hit === 1;
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.exec((r) => r.publish(this.prefix + channel, message));
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    const conn = this.subscriber();
    const full = this.prefix + channel;
    await conn.settled();
    if (!conn.ready) throw new CacheUnavailableError(`Redis is unavailable; cannot subscribe to ${channel}`);

    let state = this.channels.get(full);
    if (!state) {
      const created: ChannelState = { subs: new Set(), confirmed: conn.redis.subscribe(full) };
      state = created;
      this.channels.set(full, created);
      created.confirmed.catch(() => {
        if (this.channels.get(full) !== created) return;
        this.channels.delete(full);
        // The SUBSCRIBE may still land (or be replayed by autoResubscribe) after a
        // timeout; a queued UNSUBSCRIBE keeps the server side from drifting.
        conn.redis.unsubscribe(full).catch(() => {});
      });
    }
    const sub: Subscription = { handler, active: true };
    state.subs.add(sub);
    try {
      await state.confirmed;
    } catch (err) {
      sub.active = false;
      state.subs.delete(sub);
      throw new CacheUnavailableError(`Redis subscribe to ${channel} failed`, { cause: err });
    }
    const owner = state;
    return () => this.unsubscribe(full, owner, sub);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertLockTtl(ttlMs);
    const token = randomUUID();
    const reply = await this.exec((r) => r.set(this.key(lockKey(name)), token, 'PX', ttlMs, 'NX'));
    return reply === 'OK' ? token : null;
  }

  async releaseLock(name: string, token: string): Promise<void> {
    await this.exec((r) => r.eval(RELEASE_LOCK_LUA, 1, this.key(lockKey(name)), token));
  }

  async ping(): Promise<void> {
    await this.exec((r) => r.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const state of this.channels.values()) for (const s of state.subs) s.active = false;
    this.channels.clear();
    await Promise.all([this.cmd.shutdown(), this.sub?.shutdown()]);
  }

  private key(key: string): string {
    return this.prefix + key;
  }

  private connectionName(role: string): string {
    // CLIENT SETNAME rejects spaces; the name makes CLIENT LIST show who owns a connection.
    return `cache:${this.prefix.replace(/[^\w:.-]/g, '_')}${role}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Cache is closed');
  }

  private async exec<T>(op: (r: Redis) => Promise<T>): Promise<T> {
    this.assertOpen();
    await this.cmd.settled();
    try {
      return await op(this.cmd.redis);
    } catch (err) {
      if (!this.cmd.ready) throw new CacheUnavailableError('Redis is unavailable', { cause: err });
      throw err;
    }
  }

  /** Created on first subscribe: a connection in subscribe mode must not carry normal commands. */
  private subscriber(): Connection {
    if (this.sub) return this.sub;
    const redis = this.cmd.redis.duplicate({
      connectionName: this.connectionName('sub'),
      autoResubscribe: true,
      // Queued (not failed) while down, so an UNSUBSCRIBE issued during an outage is
      // replayed after ioredis re-subscribes and the server state converges.
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    });
    const onHandlerError = (channel: string) => (err: unknown) =>
      this.logger?.error({ err, channel }, 'Subscriber handler failed');
    redis.on('message', (channel: string, message: string) => {
      for (const s of [...(this.channels.get(channel)?.subs ?? [])]) {
        if (s.active) deliver(s.handler, message, onHandlerError(channel));
      }
    });
    // A 'ready' after a 'close' is a reconnect: messages published in between are lost for good.
    let lost = false;
    redis.on('close', () => {
      lost = true;
    });
    redis.on('ready', () => {
      if (!lost || this.closed) return;
      lost = false;
      for (const l of [...this.reconnectListeners]) {
        try {
          l();
        } catch (err) {
          this.logger?.error({ err }, 'cache reconnect listener failed');
        }
      }
    });
    this.sub = new Connection(redis, 'subscriber', this.logger);
    return this.sub;
  }

  private async unsubscribe(full: string, state: ChannelState, sub: Subscription): Promise<void> {
    if (!sub.active) return;
    sub.active = false;
    state.subs.delete(sub);
    if (state.subs.size > 0 || this.channels.get(full) !== state || !this.sub || this.closed) return;
    this.channels.delete(full);
    const conn = this.sub;
    const done = conn.redis.unsubscribe(full).then(
      () => undefined,
      (err: unknown) => this.logger?.warn({ err, channel: full }, 'Redis unsubscribe failed'),
    );
    // While down the UNSUBSCRIBE sits in the offline queue; the local handler is
    // already detached, so callers need not wait for Redis to come back.
    if (conn.ready) await done;
  }
}
