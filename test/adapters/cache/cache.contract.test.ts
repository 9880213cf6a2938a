import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache, MemoryCache, RedisCache, type Cache } from '../../../src/adapters/cache/index.js';

const redisUrl = process.env.TEST_CACHE_URL;

interface Backend {
  name: string;
  open(): Cache;
  /** A second client sharing the namespace (Redis), or the same instance (memory). */
  peer(primary: Cache): Cache;
  cleanup(): Promise<void>;
}

const memoryBackend = (): Backend => {
  const opened: Cache[] = [];
  return {
    name: 'memory',
    open: () => {
      const c = createCache('memory://');
      opened.push(c);
      return c;
    },
    peer: (primary) => primary,
    cleanup: async () => {
      await Promise.all(opened.map((c) => c.close()));
    },
  };
};

const redisBackend = (url: string): Backend => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const opened: Cache[] = [];
  const open = (): Cache => {
    const c = createCache(url, { prefix });
    opened.push(c);
    return c;
  };
  return {
    name: 'redis',
    open,
    peer: () => open(),
    cleanup: async () => {
      await Promise.all(opened.map((c) => c.close()));
      await deleteByPrefix(url, prefix);
    },
  };
};

async function deleteByPrefix(url: string, prefix: string): Promise<void> {
  const raw = new Redis(url, { lazyConnect: true });
  await raw.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await raw.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await raw.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await raw.quit();
  }
}

async function waitFor(check: () => boolean, timeoutMs = 1_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

const backends: Backend[] = [memoryBackend(), ...(redisUrl ? [redisBackend(redisUrl)] : [])];

describe.each(backends)('Cache contract: $name', (backend) => {
  let cache: Cache;
  let seq = 0;
  // Fresh key per use, so tests never observe each other's state.
  const k = (name: string): string => `${name}:${++seq}`;

  beforeAll(() => {
    cache = backend.open();
  });
  afterAll(() => backend.cleanup());

  it('reports its kind and answers ping', async () => {
    expect(cache.kind).toBe(backend.name);
    await expect(cache.ping()).resolves.toBeUndefined();
  });

  it('gets and sets values; ttl is -2 when missing and -1 without expiry', async () => {
    const key = k('plain');
    expect(await cache.get(key)).toBeNull();
    expect(await cache.ttl(key)).toBe(-2);
    await cache.set(key, 'a');
    await cache.set(key, 'b', 0);
    expect(await cache.get(key)).toBe('b');
    expect(await cache.ttl(key)).toBe(-1);
  });

  it('expires keys after their TTL', async () => {
    const key = k('expiring');
    const nx = k('expiring-nx');
    await cache.set(key, 'v', 1);
    expect(await cache.setIfAbsent(nx, 'first', 1)).toBe(true);
    expect(await cache.ttl(key)).toBe(1);
    expect(await cache.get(key)).toBe('v');
    await sleep(1_050);
    expect(await cache.get(key)).toBeNull();
    expect(await cache.ttl(key)).toBe(-2);
    expect(await cache.setIfAbsent(nx, 'second')).toBe(true);
    expect(await cache.get(nx)).toBe('second');
  });

  it('setIfAbsent only writes missing keys', async () => {
    const key = k('nx');
    expect(await cache.setIfAbsent(key, 'one')).toBe(true);
    expect(await cache.setIfAbsent(key, 'two', 10)).toBe(false);
    expect(await cache.get(key)).toBe('one');
    expect(await cache.ttl(key)).toBe(-1);
  });

  it('deletes any number of keys, missing ones included', async () => {
    const [a, b] = [k('del'), k('del')];
    await cache.set(a, '1');
    await cache.set(b, '2');
    await cache.del();
    await cache.del(a, b, k('never-set'));
    expect(await cache.get(a)).toBeNull();
    expect(await cache.get(b)).toBeNull();
  });

  it('increments counters and applies the TTL only on creation', async () => {
    const plain = k('counter');
    expect(await cache.incr(plain)).toBe(1);
    expect(await cache.incr(plain)).toBe(2);
    expect(await cache.ttl(plain)).toBe(-1);

    const window = k('rate');
    expect(await cache.incr(window, 1)).toBe(1);
    expect(await cache.ttl(window)).toBe(1);
    expect(await cache.incr(window, 100)).toBe(2);
    expect(await cache.ttl(window)).toBe(1);
  });

  it('decrements a live counter, keeping its TTL, and never revives or negates a missing one', async () => {
    const window = k('slots');
    expect(await cache.incr(window, 100)).toBe(1);
    expect(await cache.incr(window, 100)).toBe(2);
    expect(await cache.decr(window)).toBe(1);
    expect(await cache.ttl(window)).toBeGreaterThan(90);
    expect(await cache.decr(window)).toBe(0);
    expect(await cache.decr(window)).toBe(0);
    expect(await cache.get(window)).toBe('0');
    const missing = k('no-counter');
    expect(await cache.decr(missing)).toBe(0);
    expect(await cache.ttl(missing)).toBe(-2);
    const text = k('text');
    await cache.set(text, 'abc');
    await expect(cache.decr(text)).rejects.toThrow(/not an integer/);
  });

  it('incr with refreshTtl restarts the TTL on every increment', async () => {
    const key = k('sliding');
    expect(await cache.incr(key, 1, { refreshTtl: true })).toBe(1);
    expect(await cache.ttl(key)).toBe(1);
    expect(await cache.incr(key, 100, { refreshTtl: true })).toBe(2);
    expect(await cache.ttl(key)).toBeGreaterThan(90);
  });

  it('rejects incr on a non-integer value', async () => {
    const key = k('text');
    await cache.set(key, 'abc');
    await expect(cache.incr(key)).rejects.toThrow(/not an integer/);
  });

  it('manages sets', async () => {
    const key = k('set');
    expect(await cache.smembers(key)).toEqual([]);
    await cache.sadd(key, 'a', 'b', 'b');
    await cache.sadd(key);
    await cache.sadd(key, 'c');
    expect((await cache.smembers(key)).sort()).toEqual(['a', 'b', 'c']);
    expect(await cache.sismember(key, 'b')).toBe(true);
    expect(await cache.sismember(key, 'z')).toBe(false);
    expect(await cache.sismemberMany(key, ['z', 'b', 'a', 'y'])).toEqual([false, true, true, false]);
    expect(await cache.sismemberMany(k('no-such-set'), ['a'])).toEqual([false]);
    expect(await cache.sismemberMany(key, [])).toEqual([]);
    // An in-process cache answers the same at once; a networked one has no such method.
    if (cache.sismemberManyNow) {
      expect(cache.kind).toBe('memory');
      expect(cache.sismemberManyNow(key, ['z', 'b', 'a', 'y'])).toEqual([false, true, true, false]);
      expect(cache.sismemberManyNow(k('no-such-set'), ['a'])).toEqual([false]);
    } else {
      expect(cache.kind).toBe('redis');
    }
    await cache.srem(key, 'a', 'b', 'missing');
    expect(await cache.smembers(key)).toEqual(['c']);
    await cache.srem(key, 'c');
    expect(await cache.smembers(key)).toEqual([]);
    expect(await cache.ttl(key)).toBe(-2);
  });

  it('delivers published messages until unsubscribed', async () => {
    const channel = k('chan');
    const first: string[] = [];
    const second: string[] = [];
    const other: string[] = [];
    const unsubFirst = await cache.subscribe(channel, (m) => first.push(m));
    const unsubSecond = await cache.subscribe(channel, (m) => second.push(m));
    const unsubOther = await cache.subscribe(k('chan'), (m) => other.push(m));

    await cache.publish(channel, 'm1');
    await cache.publish(channel, 'm2');
    await waitFor(() => first.length === 2 && second.length === 2);
    expect(first).toEqual(['m1', 'm2']);

    await unsubFirst();
    await unsubFirst(); // idempotent
    await cache.publish(channel, 'm3');
    await waitFor(() => second.length === 3);
    await unsubSecond();
    await cache.publish(channel, 'm4');
    await sleep(100);
    expect(first).toEqual(['m1', 'm2']);
    expect(second).toEqual(['m1', 'm2', 'm3']);
    expect(other).toEqual([]);
    await unsubOther();
  });

  it('survives a subscriber handler that throws', async () => {
    const channel = k('chan-throw');
    const got: string[] = [];
    const unsubBad = await cache.subscribe(channel, () => {
      throw new Error('handler bug');
    });
    const unsubGood = await cache.subscribe(channel, (m) => got.push(m));
    await cache.publish(channel, 'x');
    await waitFor(() => got.length === 1);
    await unsubBad();
    await unsubGood();
  });

  it('shares pub/sub and locks with another client on the same prefix', async () => {
    const peer = backend.peer(cache);
    const channel = k('shared');
    const got: string[] = [];
    const unsub = await peer.subscribe(channel, (m) => got.push(m));
    await cache.publish(channel, 'hello');
    await waitFor(() => got.length === 1);
    expect(got).toEqual(['hello']);
    await unsub();

    const lock = k('shared-lock');
    const token = await cache.acquireLock(lock, 5_000);
    expect(token).toEqual(expect.any(String));
    expect(await peer.acquireLock(lock, 5_000)).toBeNull();
    await cache.releaseLock(lock, token!);
    const peerToken = await peer.acquireLock(lock, 5_000);
    expect(peerToken).not.toBeNull();
    await peer.releaseLock(lock, peerToken!);
  });

  it('grants a lock to one holder at a time', async () => {
    const lock = k('lock');
    const results = await Promise.all(Array.from({ length: 5 }, () => cache.acquireLock(lock, 5_000)));
    const winners = results.filter((t): t is string => t !== null);
    expect(winners).toHaveLength(1);
    await cache.releaseLock(lock, winners[0]);
    const next = await cache.acquireLock(lock, 5_000);
    expect(next).not.toBeNull();
    expect(next).not.toBe(winners[0]);
    await cache.releaseLock(lock, next!);
  });

  it('ignores release with a wrong token', async () => {
    const lock = k('lock-wrong');
    const token = await cache.acquireLock(lock, 5_000);
    expect(token).not.toBeNull();
    await cache.releaseLock(lock, 'not-the-token');
    expect(await cache.acquireLock(lock, 5_000)).toBeNull();
    await cache.releaseLock(lock, token!);
  });

  it('expires locks, and a stale token cannot release the next holder', async () => {
    const lock = k('lock-expiry');
    const stale = await cache.acquireLock(lock, 150);
    expect(stale).not.toBeNull();
    expect(await cache.acquireLock(lock, 150)).toBeNull();
    await sleep(250);
    const fresh = await cache.acquireLock(lock, 5_000);
    expect(fresh).not.toBeNull();
    await cache.releaseLock(lock, stale!);
    expect(await cache.acquireLock(lock, 5_000)).toBeNull();
    await cache.releaseLock(lock, fresh!);
  });

  it('rejects invalid TTLs instead of storing immortal keys', async () => {
    await expect(cache.set(k('bad-ttl'), 'v', -1)).rejects.toThrow(RangeError);
    await expect(cache.acquireLock(k('bad-lock'), 0)).rejects.toThrow(RangeError);
  });
});

describe('createCache', () => {
  it('picks the implementation by scheme', async () => {
    const memory = createCache('memory://');
    expect(memory).toBeInstanceOf(MemoryCache);
    await memory.close();
    await expect(memory.get('x')).rejects.toThrow(/closed/);
  });

  it.runIf(redisUrl)('builds a RedisCache for redis:// and namespaces keys by prefix', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const cache = createCache(redisUrl!, { prefix });
    const other = createCache(redisUrl!, { prefix: `${prefix}other:` });
    const raw = new Redis(redisUrl!);
    try {
      expect(cache).toBeInstanceOf(RedisCache);
      await cache.set('k', 'v');
      expect(await raw.get(`${prefix}k`)).toBe('v');
      expect(await other.get('k')).toBeNull();
    } finally {
      await Promise.all([cache.close(), other.close(), raw.quit()]);
      await deleteByPrefix(redisUrl!, prefix);
    }
  });

  it('rejects unknown schemes without echoing credentials', () => {
    expect(() => createCache('memcached://user:s3cret@host')).toThrow(/Unsupported cache URL scheme "memcached:\/\/"/);
    expect(() => createCache('memcached://user:s3cret@host')).not.toThrow(/s3cret/);
    expect(() => createCache('localhost:6379')).toThrow(/no scheme/);
  });
});
