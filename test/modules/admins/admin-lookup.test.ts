/**
 * The request-time admin lookup: served from memory between writes, dropped by every write on
 * this worker and (over the cache's pub/sub) on the others, never older than MAX_AGE_MS.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCache, type Cache } from '../../../src/adapters/cache/index.js';
import type { AdminRow } from '../../../src/db/types.js';
import { AdminLookup, MAX_AGE_MS } from '../../../src/modules/admins/admin-lookup.js';
import { eventually } from '../agent/agent-helpers.js';
import { cacheKinds, uniqueSuffix } from '../../helpers/targets.js';

const quiet = { warn: () => {}, info: () => {} };

function row(version: number): AdminRow {
  return {
    id: 1, username: 'admin', password_hash: 'x', totp_secret_enc: null, totp_enabled: 0,
    token_version: version, created_at: '2026-01-01T00:00:00.000Z',
  } as AdminRow;
}

describe.each(cacheKinds())('admin lookup on a %s cache', (kind) => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
  });

  let prefix = '';
  function cache(shared?: Cache): Cache {
    if (shared) return shared;
    prefix ||= `${process.env.TEST_CACHE_PREFIX ?? 'test:'}${uniqueSuffix()}:`;
    const c = createCache(kind === 'redis' ? process.env.TEST_CACHE_URL! : 'memory://', { prefix });
    opened.push(c);
    return c;
  }

  /** One "worker": a lookup over a fake table whose reads are counted. */
  async function worker(table: { version: number | null }, c: Cache, clock = { now: 0 }) {
    let reads = 0;
    const lookup = new AdminLookup({
      findById: async () => {
        reads++;
        return table.version === null ? undefined : row(table.version);
      },
      cache: c,
      log: quiet,
      now: () => clock.now,
    });
    await lookup.start();
    opened.push({ close: () => lookup.stop() });
    return { lookup, reads: () => reads, clock };
  }

  it('serves a row from memory until a write on this worker drops it', async () => {
    const table = { version: 0 };
    const w = await worker(table, cache());
    expect((await w.lookup.findById(1))?.token_version).toBe(0);
    expect((await w.lookup.findById(1))?.token_version).toBe(0);
    expect(w.reads()).toBe(1);
    table.version = 1;
    await w.lookup.invalidate(1);
    expect((await w.lookup.findById(1))?.token_version).toBe(1);
    expect(w.reads()).toBe(2);
  });

  it('never trusts a row for longer than MAX_AGE_MS', async () => {
    const table = { version: 0 };
    const w = await worker(table, cache());
    await w.lookup.findById(1);
    table.version = 5; // changed behind its back, no announcement
    w.clock.now += MAX_AGE_MS - 1;
    expect((await w.lookup.findById(1))?.token_version).toBe(0);
    w.clock.now += 1;
    expect((await w.lookup.findById(1))?.token_version).toBe(5);
  });

  it('peek answers from memory only: never read, stale or invalidated rows are undefined', async () => {
    const table = { version: 0 };
    const w = await worker(table, cache());
    expect(w.lookup.peek(1)).toBeUndefined();
    await w.lookup.findById(1);
    expect(w.lookup.peek(1)?.token_version).toBe(0);
    w.clock.now += MAX_AGE_MS;
    expect(w.lookup.peek(1)).toBeUndefined();
    await w.lookup.findById(1);
    await w.lookup.invalidate(1);
    expect(w.lookup.peek(1)).toBeUndefined();
    expect(w.reads()).toBe(2);
  });

  it('a write announced by one worker drops the row on another sharing the cache', async () => {
    const table = { version: 0 };
    const shared = cache();
    const a = await worker(table, shared);
    const b = await worker(table, kind === 'redis' ? cache() : shared);
    await b.lookup.findById(1);
    table.version = 1;
    await a.lookup.invalidate(1);
    await eventually(async () => (await b.lookup.findById(1))?.token_version === 1, 2_000, 5);
  });

  it('a read that overlapped a write does not keep what it read', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let version = 0;
    let reads = 0;
    const lookup = new AdminLookup({
      findById: async () => {
        reads++;
        const v = version; // the read sees the row before the write commits...
        await gate;
        return row(v);
      },
      cache: cache(),
      log: quiet,
      now: () => 0,
    });
    const slow = lookup.findById(1);
    version = 1;
    await lookup.invalidate(1); // ...and the write lands before the read returns
    release();
    expect((await slow)?.token_version).toBe(0);
    expect((await lookup.findById(1))?.token_version).toBe(1);
    expect(reads).toBe(2);
  });

  it('does not cache a missing admin, and forgets a deleted one', async () => {
    const table: { version: number | null } = { version: null };
    const w = await worker(table, cache());
    expect(await w.lookup.findById(1)).toBeUndefined();
    table.version = 0;
    expect((await w.lookup.findById(1))?.token_version).toBe(0);
    table.version = null;
    await w.lookup.invalidate(1);
    expect(await w.lookup.findById(1)).toBeUndefined();
  });
});

describe('admin lookup when the cache cannot publish', () => {
  it('drops its own copy, logs, and does not fail the write', async () => {
    const warnings: string[] = [];
    const broken = createCache('memory://');
    broken.publish = async () => {
      throw new Error('cache down');
    };
    let version = 0;
    const lookup = new AdminLookup({
      findById: async () => row(version),
      cache: broken,
      log: { warn: (_o, msg) => void warnings.push(String(msg)), info: () => {} },
      now: () => 0,
    });
    await lookup.start();
    await lookup.findById(1);
    version = 1;
    await expect(lookup.invalidate(1)).resolves.toBeUndefined();
    expect((await lookup.findById(1))?.token_version).toBe(1);
    expect(warnings).toEqual(['could not announce an admin change to other workers']);
    await lookup.stop();
    await broken.close();
  });
});
