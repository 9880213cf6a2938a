/**
 * Anonymous routes are rate limited per caller address (login tightest, so nobody without a
 * login makes the service hash without bound); authenticated routes and the agent heartbeat are
 * not. On Redis the limit is shared by every worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds } from '../helpers/targets.js';

/** The default of RATE_LIMIT_AUTH_PER_MINUTE. */
const AUTH_LIMIT_PER_MINUTE = 30;

describe.each(cacheKinds())('anonymous rate limit on %s', (cache) => {
  let t: TestApp;
  let other: TestApp | null = null;
  beforeAll(async () => {
    t = await makeTestApp({ cache, env: { RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT_PER_MINUTE), RATE_LIMIT_PUBLIC_PER_MINUTE: '600' } });
    if (cache === 'redis') other = await makeTestApp({ shareWith: t });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('limits logins per address with a 429 {detail} and Retry-After, and leaves logged-in routes alone', async () => {
    const headers = await t.auth(); // one successful login first
    const apps = [t, other ?? t];
    const statuses: number[] = [];
    let last: { statusCode: number; headers: Record<string, unknown>; json(): unknown } | null = null;
    for (let i = 0; i < AUTH_LIMIT_PER_MINUTE + 5; i++) {
      // Alternating workers on Redis: the count is shared.
      last = await apps[i % 2].app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: 'not-a-token' },
        remoteAddress: '203.0.113.9',
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.slice(0, AUTH_LIMIT_PER_MINUTE - 1).every((s) => s === 401)).toBe(true);
    expect(last?.json()).toEqual({ detail: 'Too many requests; try again later', code: 'rate_limited' });
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);

    // Another address is not affected, nor is an authenticated route from the limited one.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: 'x' }, remoteAddress: '203.0.113.10' });
    expect(elsewhere.statusCode).toBe(401);
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({ url: '/api/servers', headers, remoteAddress: '203.0.113.9' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('never limits the agent heartbeat (thousands of agents may share an address)', async () => {
    for (let i = 0; i < 700; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/agent/heartbeat',
        headers: { authorization: 'Bearer bad-token-bad-token-bad' },
        payload: { cpu: 1, mem: 1, disk: 1, ts: 1 },
        remoteAddress: '198.51.100.7',
      });
      expect(res.statusCode).toBe(401);
    }
  });
});
