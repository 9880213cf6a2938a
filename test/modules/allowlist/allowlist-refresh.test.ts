/** The periodic subscription refresh: one worker per period, a failure keeps the previous list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { AllowlistService } from '../../../src/modules/allowlist/allowlist.service.js';
import { SafeFetcher } from '../../../src/adapters/http/safe-fetch.js';
import { offlineEnv, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';
import { until } from '../push/push-helpers.js';

function serviceOf(t: TestApp): AllowlistService {
  const c = t.app.services;
  return new AllowlistService({
    settings: c.settings,
    cache: c.cache,
    audit: c.audit,
    log: c.log,
    fetcher: new SafeFetcher({ resolve: async () => ['127.0.0.1'], allowLoopback: true }),
    listAllows: async () => false,
  });
}

let fake: FakeServer;
let status = 200;
let body = 'trojan://pw@one.example.com:443';
beforeAll(async () => {
  fake = await startFakeServer((_req, res) => {
    res.writeHead(status);
    res.end(body);
  });
});
afterAll(async () => fake?.close());

describe.each(dbKinds())('scheduled subscription refresh on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
  });
  afterAll(async () => t?.close());

  it('refreshes when due, not again within the period, and keeps the list on failure', async () => {
    const s = serviceOf(t);
    const c = t.app.services;
    expect(await s.runScheduledRefresh(200)).toBe(false); // no URL yet
    await c.settings.set('login_subscription_url', `http://sub.example.test:${fake.port}/s`);
    await c.settings.set('login_manual_ips', '203.0.113.1');
    const hits = fake.requests.length;
    expect(await s.runScheduledRefresh(200)).toBe(true);
    expect(c.settings.get('login_subscription_ips')).toBe('one.example.com');
    expect(c.settings.get('login_allowed_ips')).toBe('one.example.com,203.0.113.1');
    expect(await s.runScheduledRefresh(200)).toBe(false);
    expect(fake.requests.length).toBe(hits + 1);

    status = 503;
    try {
      // Once the period (and its cross-worker lock) has passed, the next check refreshes again;
      // the refresh fails, so it answers false and the previous list stays.
      await until(async () => {
        expect(await s.runScheduledRefresh(200)).toBe(false);
        return fake.requests.length === hits + 2;
      }, 5_000, 20);
      expect(c.settings.get('login_subscription_ips')).toBe('one.example.com');
    } finally {
      status = 200;
    }
  });

  it('the interval runs only while started', async () => {
    const s = serviceOf(t);
    const c = t.app.services;
    await c.settings.set('login_subscription_last_refresh', '');
    body = 'trojan://pw@two.example.com:443';
    const INTERVAL_MS = 20;
    s.start(INTERVAL_MS, 60);
    await until(async () => c.settings.get('login_subscription_ips') === 'two.example.com', 5_000, 10);
    await s.stop();
    const after = fake.requests.length;
    // Absence can only be shown by waiting: several intervals pass without a request.
    await new Promise((r) => setTimeout(r, 8 * INTERVAL_MS));
    expect(fake.requests.length).toBe(after);
    body = 'trojan://pw@one.example.com:443';
  });
});

describe.skipIf(!process.env.TEST_CACHE_URL)('scheduled refresh across two workers (redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await makeTestApp({ cache: 'redis', env: offlineEnv() });
    b = await makeTestApp({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('only one worker refreshes per period', async () => {
    const url = `http://sub.example.test:${fake.port}/s`;
    await a.app.services.settings.set('login_subscription_url', url);
    await until(async () => b.app.services.settings.get('login_subscription_url') === url, 5_000, 10);
    const hits = fake.requests.length;
    const results = await Promise.all([serviceOf(a).runScheduledRefresh(60_000), serviceOf(b).runScheduledRefresh(60_000)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(fake.requests.length).toBe(hits + 1);
  });
});
