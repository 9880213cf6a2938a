/**
 * Hot reload across workers: two app instances sharing one database and one Redis. A change made
 * through one must be visible through the other within a second, including what the login guard
 * reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from './fake-http.js';

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs = 1000): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return { value, ms: Date.now() - start };
    if (Date.now() - start > withinMs) throw new Error(`not visible within ${withinMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!process.env.TEST_CACHE_URL).each(dbKinds())('settings propagation between workers on %s + redis', (db) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await makeTestApp({ db, cache: 'redis', env: offlineEnv() });
    b = await makeTestApp({ shareWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a PUT on one worker is visible on the other within one second', async () => {
    const hb = await b.auth();
    for (const value of ['first', 'second', 'third']) {
      const put = await a.app.inject({ method: 'PUT', url: '/api/settings/system_name', headers: await a.auth(), payload: { value } });
      expect(put.statusCode).toBe(200);
      const seen = await eventually(
        async () => (await b.app.inject({ url: '/api/settings/system_name', headers: hb })).json(),
        (v) => v.value === value,
      );
      expect(seen.ms).toBeLessThan(1000);
      expect(b.app.services.settings.get('system_name')).toBe(value);
    }
  });

  it('integer settings hot reload in the running configuration', async () => {
    await a.app.inject({ method: 'PUT', url: '/api/settings/cpu_alert_threshold', headers: await a.auth(), payload: { value: '77' } });
    await eventually(async () => b.app.services.settings.getInt('cpu_alert_threshold', 90), (v) => v === 77);
  });

  it('encrypted secrets propagate and decrypt on the other worker', async () => {
    await a.app.inject({ method: 'PUT', url: '/api/settings/messenger_bot_token', headers: await a.auth(), payload: { value: '99:worker-token' } });
    const res = await eventually(
      async () => b.app.inject({ method: 'POST', url: '/api/settings/messenger/reveal-token', headers: await b.auth() }),
      (r) => r.statusCode === 200,
    );
    expect(res.value.json()).toEqual({ key: 'messenger_bot_token', value: '99:worker-token' });
  });

  it('the login allowlist set on one worker is enforced by the other', async () => {
    const login = () =>
      b.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    const save = await a.app.inject({
      method: 'POST',
      url: '/api/settings/ip-allowlist',
      headers: await a.auth(),
      payload: { manual_ips: ['10.9.9.9'], enabled: true },
    });
    expect(save.statusCode).toBe(200);
    const blocked = await eventually(login, (r) => r.statusCode === 403);
    expect(blocked.value.json().detail).toBe('ip_blocked');

    await a.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/manual', headers: await a.auth(), payload: { ips: ['127.0.0.1'] } });
    await eventually(login, (r) => r.statusCode === 200);

    await a.app.inject({ method: 'DELETE', url: '/api/settings/ip-allowlist/ip?ip=127.0.0.1', headers: await a.auth() });
    await eventually(login, (r) => r.statusCode === 403);
    await a.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=false', headers: await a.auth() });
    await eventually(login, (r) => r.statusCode === 200);
  });
});
