/** The periodic subscription refresh: one worker per period, a failure keeps the previous list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { AllowlistService } from '../../../src/modules/allowlist/allowlist.service.js';
import { SafeFetcher } from '../../../src/adapters/http/safe-fetch.js';
import { offlineEnv, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

function serviceOf(t: TestApp): AllowlistService {
  const c = t.app.services;
  return new AllowlistService({
    settings: c.settings,
    cache: c.cache,
    audit: c.audit,
    log: c.log,
    fetcher: new SafeFetcher({ resolve: async () => ['127.0.0.1'], allowLoopback: true }),
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

    await new Promise((r) => setTimeout(r, 250));
    status = 503;
    try {
      expect(await s.runScheduledRefresh(200)).toBe(false);
      expect(fake.requests.length).toBe(hits + 2);
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
    s.start(20, 60);
    await new Promise((r) => setTimeout(r, 300));
    await s.stop();
    expect(c.settings.get('login_subscription_ips')).toBe('two.example.com');
    const after = fake.requests.length;
    await new Promise((r) => setTimeout(r, 150));
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
    await a.app.services.settings.set('login_subscription_url', `http://sub.example.test:${fake.port}/s`);
    await new Promise((r) => setTimeout(r, 100));
    const hits = fake.requests.length;
    const results = await Promise.all([serviceOf(a).runScheduledRefresh(60_000), serviceOf(b).runScheduledRefresh(60_000)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(fake.requests.length).toBe(hits + 1);
  });
});
