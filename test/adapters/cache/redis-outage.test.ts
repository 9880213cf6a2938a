import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CacheUnavailableError, RedisCache } from '../../../src/adapters/cache/index.js';

const redisUrl = process.env.TEST_CACHE_URL;

const listen = (server: net.Server, port = 0): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });

/** A port that was free a moment ago, so a connect there is refused. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** TCP forwarder to the real Redis that can be cut and restored to simulate an outage. */
async function startProxy(target: URL, port = 0) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const boundPort = await listen(server, port);
  return {
    port: boundPort,
    stop: async (): Promise<void> => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
}

const fakeLogger = () => ({ warn: vi.fn(), error: vi.fn(), info: vi.fn() });

describe.runIf(redisUrl)('RedisCache when Redis is unreachable', () => {
  const escaped: unknown[] = [];
  const onEscaped = (err: unknown): void => {
    escaped.push(err);
  };
  beforeEach(() => {
    escaped.length = 0;
    process.on('uncaughtException', onEscaped);
    process.on('unhandledRejection', onEscaped);
  });
  afterEach(() => {
    process.off('uncaughtException', onEscaped);
    process.off('unhandledRejection', onEscaped);
  });

  it('fails fast, logs sparingly, never crashes and still closes', async () => {
    const logger = fakeLogger();
    const cache = new RedisCache(`redis://127.0.0.1:${await freePort()}`, { prefix: 'test:outage:', logger });
    try {
      let started = Date.now();
      await expect(cache.get('k')).rejects.toBeInstanceOf(CacheUnavailableError);
      await expect(cache.ping()).rejects.toThrow();
      await expect(cache.set('k', 'v', 1)).rejects.toThrow();
      await expect(cache.incr('n', 1)).rejects.toThrow();
      await expect(cache.acquireLock('l', 1_000)).rejects.toThrow();
      await expect(cache.publish('c', 'm')).rejects.toThrow();
      await expect(cache.subscribe('c', () => {})).rejects.toBeInstanceOf(CacheUnavailableError);
      expect(Date.now() - started).toBeLessThan(2_000);

      // Let several reconnect attempts (200, 400, 600 ms back-off) fail on both connections.
      await sleep(1_000);
      started = Date.now();
      await expect(cache.ping()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2_000);
      // One line per connection, not one per retry.
      expect(logger.warn.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(logger.warn.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      const closing = Date.now();
      await cache.close();
      expect(Date.now() - closing).toBeLessThan(1_500);
    }
    await expect(cache.get('k')).rejects.toThrow(/closed/);
    expect(escaped).toEqual([]);
  });

  it('recovers after an outage, keeps its subscriptions and signals the reconnect (what was published meanwhile is lost)', async () => {
    const target = new URL(redisUrl!);
    const proxy = await startProxy(target);
    const proxied = new URL(redisUrl!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);

    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const logger = fakeLogger();
    const cache = new RedisCache(proxied.toString(), { prefix, logger });
    // Publishes straight to Redis, so the only thing interrupted is `cache`.
    const publisher = new RedisCache(redisUrl!, { prefix });
    let restarted: Awaited<ReturnType<typeof startProxy>> | null = null;
    try {
      const got: string[] = [];
      let reconnects = 0;
      cache.onReconnect(() => reconnects++);
      await cache.subscribe('events', (m) => got.push(m));
      await publisher.publish('events', 'before');
      await waitFor(async () => got.includes('before'), 1_000);
      expect(reconnects).toBe(0);

      await proxy.stop();
      const rejected = (): Promise<boolean> =>
        cache.ping().then(
          () => false,
          (err: unknown) => err instanceof CacheUnavailableError,
        );
      await waitFor(rejected, 2_000);
      await sleep(300);

      // Published while the subscriber is away: lost for good, hence the reconnect signal.
      await publisher.publish('events', 'missed');
      restarted = await startProxy(target, proxy.port);
      await waitFor(async () => {
        await publisher.publish('events', 'after');
        return got.includes('after');
      }, 4_000);
      await expect(cache.ping()).resolves.toBeUndefined();
      expect(logger.info).toHaveBeenCalledWith(expect.anything(), 'Redis connection restored');
      expect(got).not.toContain('missed');
      // Once per reconnect of the pub/sub connection, never for the first connect.
      expect(reconnects).toBe(1);
    } finally {
      await Promise.all([cache.close(), publisher.close()]);
      await (restarted ?? proxy).stop().catch(() => {});
    }
    expect(escaped).toEqual([]);
  });
});
