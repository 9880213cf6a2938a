/**
 * Service notices: the restart notice at start, and database/cache outage and recovery notices
 * from the health watcher (on a change of state only). Outages are simulated by failing the ping
 * of a real database and cache; the bot is a local fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cache } from '../../../src/adapters/cache/cache.js';
import { pingDatabase } from '../../../src/db/database.js';
import { HealthWatcher } from '../../../src/modules/alerts/health-watcher.js';
import { NoticeClaimsRepository } from '../../../src/modules/alerts/notice-claims.repository.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { backends, eventually, putSetting } from '../agent/agent-helpers.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

describe.each(backends())('service notices on %s + %s cache', (db, cache) => {
  let t: TestApp;
  let bot: FakeServer;

  beforeAll(async () => {
    bot = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true, result: {} }));
    t = await makeTestApp({ db, cache, env: offlineEnv({ MESSENGER_API_BASE: bot.url }) });
    await putSetting(t, 'messenger_bot_token', '1:notices');
    await putSetting(t, 'messenger_chat_id', '7');
    await putSetting(t, 'system_name', 'Fleet <prod>');
  });
  afterAll(async () => {
    await t?.close();
    await bot?.close();
  });
  beforeEach(() => {
    bot.requests.length = 0;
  });

  const texts = () => bot.requests.map((r) => (JSON.parse(r.body) as { text: string }).text);

  it('a (re)started process sends one restart notice', async () => {
    const again = await makeTestApp({ shareWith: t });
    try {
      const text = await eventually(async () => texts().find((x) => x.includes('started')));
      expect(text).toContain('Fleet &lt;prod&gt;');
      expect(texts().filter((x) => x.includes('started'))).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('database and cache outages and recoveries are notified once per change', async () => {
    const c = t.app.services;
    const down = { db: false, cache: false };
    let rebuilt = 0;
    const flaky: Cache = Object.create(c.cache, {
      ping: { value: async () => (down.cache ? Promise.reject(new Error('connection refused')) : c.cache.ping()) },
    });
    const watcher = new HealthWatcher({
      pingDb: () => (down.db ? Promise.reject(new Error('connection refused')) : pingDatabase(c.db)),
      cache: flaky,
      notify: (event) => c.notifications.notify(event),
      log: c.log,
      systemName: () => 'fleet',
      onCacheRestored: async () => rebuilt++,
    });
    expect(await watcher.check()).toEqual([]);

    down.db = true;
    expect(await watcher.check()).toEqual([{ component: 'db', up: false }]);
    expect(await watcher.check()).toEqual([]);
    down.db = false;
    down.cache = true;
    expect(await watcher.check()).toEqual([
      { component: 'db', up: true },
      { component: 'cache', up: false },
    ]);
    down.cache = false;
    expect(await watcher.check()).toEqual([{ component: 'cache', up: true }]);
    expect(rebuilt).toBe(1);

    await eventually(async () => texts().length >= 4);
    await new Promise((r) => setTimeout(r, 100));
    const sent = texts();
    expect(sent.filter((x) => /Database connection lost/.test(x))).toHaveLength(1);
    expect(sent.filter((x) => /Database connection restored/.test(x))).toHaveLength(1);
    expect(sent.filter((x) => /Cache connection lost/.test(x))).toHaveLength(1);
    expect(sent.filter((x) => /Cache connection restored/.test(x))).toHaveLength(1);
  });

  it('a cache emptied between two rounds (a restart quicker than a probe) rebuilds the active set', async () => {
    const c = t.app.services;
    let rebuilt = 0;
    const watcher = new HealthWatcher({
      pingDb: () => pingDatabase(c.db),
      cache: c.cache,
      notify: async () => true,
      log: c.log,
      systemName: () => 'fleet',
      onCacheRestored: async () => rebuilt++,
    });
    await watcher.check();
    await watcher.check();
    expect(rebuilt).toBe(0);
    // What a Redis restart without persistence does to every key.
    await c.cache.del('health:cache-marker');
    expect(await watcher.check()).toEqual([]);
    expect(rebuilt).toBe(1);
    await watcher.check();
    expect(rebuilt).toBe(1);
  });

  it('with several workers, a cache outage is notified once: the claim is taken in the database', async () => {
    const c = t.app.services;
    const claims = new NoticeClaimsRepository(c.db);
    let cacheDown = true;
    const deadCache: Cache = Object.create(c.cache, {
      ping: { value: async () => (cacheDown ? Promise.reject(new Error('connection refused')) : c.cache.ping()) },
      setIfAbsent: { value: async () => Promise.reject(new Error('connection refused')) },
    });
    const workers = [1, 2, 3].map(
      () =>
        new HealthWatcher({
          pingDb: () => pingDatabase(c.db),
          cache: deadCache,
          notify: (event) => c.notifications.notify(event),
          log: c.log,
          systemName: () => 'fleet',
          claimInDb: (key, ttl) => claims.claim(key, ttl),
        }),
    );
    await Promise.all(workers.map((w) => w.check()));
    cacheDown = false;
    await Promise.all(workers.map((w) => w.check()));
    await eventually(async () => texts().length >= 2);
    await new Promise((r) => setTimeout(r, 150));
    expect(texts().filter((x) => /Cache connection lost/.test(x))).toHaveLength(1);
    expect(texts().filter((x) => /Cache connection restored/.test(x))).toHaveLength(1);
  });

  it('a database claim is taken once until it expires', async () => {
    const claims = new NoticeClaimsRepository(t.app.services.db);
    const at = new Date('2026-01-01T00:00:00Z');
    const later = (s: number) => new Date(at.getTime() + s * 1000);
    expect(await claims.claim('test:claim', 60, at)).toBe(true);
    expect(await claims.claim('test:claim', 60, later(30))).toBe(false);
    expect(await claims.claim('test:other', 60, later(30))).toBe(true);
    expect(await claims.claim('test:claim', 60, later(61))).toBe(true);
    const raced = await Promise.all([1, 2, 3, 4].map(() => claims.claim('test:race', 60, later(100))));
    expect(raced.filter(Boolean)).toHaveLength(1);
  });

  it('each notice is behind its notify_* switch', async () => {
    await putSetting(t, 'notify_system_db', 'false');
    const c = t.app.services;
    // Forget the cross-worker de-duplication marks of the previous test.
    await c.cache.del('health:notice:db:down', 'health:notice:db:up');
    let dbDown = true;
    const watcher = new HealthWatcher({
      pingDb: () => (dbDown ? Promise.reject(new Error('down')) : pingDatabase(c.db)),
      cache: c.cache,
      notify: (event) => c.notifications.notify(event),
      log: c.log,
      systemName: () => 'fleet',
    });
    expect(await watcher.check()).toEqual([{ component: 'db', up: false }]);
    dbDown = false;
    await watcher.check();
    await new Promise((r) => setTimeout(r, 200));
    expect(texts().filter((x) => /Database/.test(x))).toEqual([]);
    await putSetting(t, 'notify_system_db', 'true');
  });
});
