/**
 * The allowlist endpoints the console adds: the caller's own verdict (`check`), a batch judged
 * line by line (`validate`) and refresh now (`refresh`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const resolver = async (host: string) => {
  if (host === 'sub.example.test') return ['127.0.0.1'];
  throw new Error('ENOTFOUND');
};

describe.each(dbKinds())('allowlist console endpoints on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  let fake: FakeServer;
  let body = b64('trojan://pw@a.example.com:443#A\nvless://id@198.51.100.1:443#B');
  let status = 200;

  beforeAll(async () => {
    fake = await startFakeServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    });
    t = await makeTestApp({ db, env: offlineEnv(), config: { allowPrivateFetch: true }, fetchResolver: resolver });
    h = await t.auth();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await t.app.services.settings.set('login_allowlist_enabled', 'false');
    await t.app.services.settings.set('login_manual_ips', '');
    await t.app.services.settings.set('login_subscription_url', '');
    await t.app.services.settings.set('login_subscription_ips', '');
  });

  const check = (remoteAddress: string) =>
    t.app.inject({ url: '/api/settings/ip-allowlist/check', headers: h, remoteAddress });
  const audits = (action: string) => t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();

  it('needs a login', async () => {
    expect((await t.app.inject({ url: '/api/settings/ip-allowlist/check' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/validate', payload: { ips: ['1.2.3.4'] } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/refresh' })).statusCode).toBe(401);
  });

  it('check answers the caller address and whether the lists let it in, on or off', async () => {
    expect((await check('203.0.113.7')).json()).toEqual({ ip: '203.0.113.7', enabled: false, listed: false, allowed: true });
    await t.app.services.settings.set('login_manual_ips', '203.0.113.0/24');
    expect((await check('203.0.113.7')).json()).toEqual({ ip: '203.0.113.7', enabled: false, listed: true, allowed: true });
    expect((await check('198.51.100.9')).json()).toEqual({ ip: '198.51.100.9', enabled: false, listed: false, allowed: true });
    await t.app.services.settings.set('login_allowlist_enabled', 'true');
    expect((await check('198.51.100.9')).json()).toMatchObject({ enabled: true, listed: false, allowed: false });
    // The verdict is the login's own: a login from the unlisted address is refused.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '198.51.100.9', payload: { username: 'admin', password: 'x' } });
    expect(login.statusCode).toBe(403);
  });

  it('validate judges each line by the writes\' rule (1-based, blank lines skipped) and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings/ip-allowlist/validate',
      headers: h,
      payload: { ips: ['10.0.0.1', '', 'Example.COM', '300.1.1.1', '10.0.0.0/33'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      entries: [
        { line: 1, input: '10.0.0.1', entry: '10.0.0.1', error: null },
        { line: 3, input: 'Example.COM', entry: 'example.com', error: null },
        { line: 4, input: '300.1.1.1', entry: null, error: 'invalid' },
        { line: 5, input: '10.0.0.0/33', entry: null, error: 'invalid' },
      ],
      valid_count: 2,
      invalid_count: 2,
    });
    expect(t.app.services.settings.get('login_manual_ips')).toBe('');
    // Same batch limits as the manual add: 1 to 100 entries.
    for (const ips of [[], Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`)]) {
      const bad = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/validate', headers: h, payload: { ips } });
      expect(bad.statusCode).toBe(422);
    }
  });

  it('refresh: 400 without a subscription URL, replaces the list and audits when it works, keeps it when it fails', async () => {
    const refresh = () => t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/refresh', headers: h });
    const none = await refresh();
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('allowlist_no_subscription');

    await t.app.services.settings.set('login_subscription_url', `http://sub.example.test:${fake.port}/s`);
    const ok = await refresh();
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, refresh_ok: true, refresh_error: null, subscription_count: 2, total_count: 2 });
    expect(ok.json().last_refresh).toEqual(expect.any(String));
    expect(t.app.services.settings.get('login_subscription_ips')).toBe('a.example.com,198.51.100.1');
    expect((await audits('refresh_ip_allowlist')).length).toBeGreaterThan(0);

    status = 500;
    const failed = await refresh();
    status = 200;
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({ refresh_ok: false, subscription_count: 2 });
    expect(failed.json().refresh_error).toEqual(expect.any(String));
    body = b64('trojan://pw@a.example.com:443#A');
  });

  it('refresh is refused to the API key (403 api_key_refused)', async () => {
    const key = (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: h })).json().value as string;
    const res = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/refresh', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('api_key_refused');
    // Reading the verdict is not a write: the key may.
    expect((await t.app.inject({ url: '/api/settings/ip-allowlist/check', headers: { 'x-api-key': key } })).statusCode).toBe(200);
  });
});
