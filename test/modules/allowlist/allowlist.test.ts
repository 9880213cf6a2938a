import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const SUB_V1 = b64(['trojan://pw@a.example.com:443#A', 'vless://id@198.51.100.1:443#B', 'hy2://x@a.example.com:1#dup'].join('\n'));
const SUB_V2 = ['ss://' + b64('aes-256-gcm:p') + '@c.example.com:8388#C'].join('\n');

/** Test host names: the fake server's is loopback (admitted by allowPrivateFetch), the others are not. */
const resolver = async (host: string) => {
  const map: Record<string, string[]> = { 'sub.example.test': ['127.0.0.1'], 'internal.example.test': ['10.0.0.1'] };
  if (!map[host]) throw new Error('ENOTFOUND');
  return map[host];
};

describe.each(dbKinds())('login IP allowlist on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  let fake: FakeServer;
  let body = SUB_V1;
  let status = 200;
  let sub: string;

  beforeAll(async () => {
    fake = await startFakeServer((req, res) => {
      if (req.url.startsWith('/to-private')) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return void res.end();
      }
      if (req.url.startsWith('/empty')) {
        res.writeHead(200);
        return void res.end('nothing to see');
      }
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    });
    sub = `http://sub.example.test:${fake.port}/sub?token=abc`;
    t = await makeTestApp({ db, env: offlineEnv(), config: { allowPrivateFetch: true }, fetchResolver: resolver });
    h = await t.auth();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const state = async () => (await t.app.inject({ url: '/api/settings/ip-allowlist', headers: h })).json();
  const save = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist', headers: h, payload });
  const setting = (k: string) => t.app.services.settings.get(k);
  const audits = (action: string) =>
    t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();

  it('needs an administrator', async () => {
    expect((await t.app.inject({ url: '/api/settings/ip-allowlist' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist', payload: {} })).statusCode).toBe(401);
  });

  it('GET has the documented shape when nothing is configured', async () => {
    expect(await state()).toEqual({
      enabled: false,
      subscription_url: '',
      subscription_ips: [],
      manual_ips: [],
      subscription_count: 0,
      manual_count: 0,
      total_count: 0,
      last_refresh: null,
    });
  });

  it('rejects an invalid entry with a 400 naming it, storing nothing', async () => {
    const res = await save({ manual_ips: ['1.2.3.4', 'bad entry!'], enabled: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('bad entry!');
    expect(setting('login_manual_ips')).toBeNull();
    expect(setting('login_allowlist_enabled')).toBeNull();
    for (const bad of ['300.1.1.1', '1.2.3.4/40', 'example', 'exa_mple.com']) {
      const r = await save({ manual_ips: [bad] });
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toContain(bad);
    }
  });

  it('saves a manual list without subscription', async () => {
    const res = await save({ manual_ips: [' 203.0.113.5 ', '', '10.0.0.0/8', 'Office.Example.com', '203.0.113.5'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      manual_count: 3,
      subscription_ips: [],
      subscription_count: 0,
      last_refresh: null,
      refresh_ok: true,
      refresh_error: null,
    });
    expect(setting('login_manual_ips')).toBe('203.0.113.5,10.0.0.0/8,office.example.com');
    expect(setting('login_allowed_ips')).toBe('203.0.113.5,10.0.0.0/8,office.example.com');
    expect((await audits('update_ip_allowlist')).length).toBe(1);
  });

  it('saves with a subscription: union, counts and last_refresh', async () => {
    body = SUB_V1;
    const res = await save({ manual_ips: ['203.0.113.5', 'a.example.com'], subscription_url: sub, enabled: false });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ success: true, manual_count: 2, subscription_ips: ['a.example.com', '198.51.100.1'], subscription_count: 2, refresh_ok: true, refresh_error: null });
    expect(Date.parse(r.last_refresh)).not.toBeNaN();
    expect(setting('login_allowed_ips')).toBe('a.example.com,198.51.100.1,203.0.113.5');
    const s = await state();
    expect(s).toMatchObject({ enabled: false, subscription_url: sub, subscription_count: 2, manual_count: 2, total_count: 3, last_refresh: r.last_refresh });
  });

  it('a failed refresh keeps the previous list and answers 200 with refresh_ok false', async () => {
    const before = await state();
    status = 500;
    try {
      const res = await save({ manual_ips: ['203.0.113.5'] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ refresh_ok: false, subscription_ips: before.subscription_ips, last_refresh: before.last_refresh });
      expect(res.json().refresh_error).toMatch(/HTTP 500/);
    } finally {
      status = 200;
    }
    const blocked = await save({ manual_ips: ['203.0.113.5'], subscription_url: `http://internal.example.test/` });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({ refresh_ok: false, subscription_count: 2 });
    expect(blocked.json().refresh_error).toMatch(/blocked/);
    expect(setting('login_allowed_ips')).toBe('a.example.com,198.51.100.1,203.0.113.5');
  });

  it('omitting subscription_url keeps it; a refresh replaces the list; "" clears it', async () => {
    await save({ manual_ips: [], subscription_url: sub });
    body = SUB_V2;
    const res = await save({ manual_ips: ['203.0.113.5'] });
    expect(res.json().subscription_ips).toEqual(['c.example.com']);
    expect(setting('login_subscription_url')).toBe(sub);
    const cleared = await save({ manual_ips: ['203.0.113.5'], subscription_url: '' });
    expect(cleared.json()).toMatchObject({ subscription_ips: [], subscription_count: 0, last_refresh: null, refresh_ok: true });
    expect(setting('login_subscription_ips')).toBe('');
    expect(setting('login_allowed_ips')).toBe('203.0.113.5');
    expect((await state()).subscription_url).toBe('');
    body = SUB_V1;
  });

  it('toggle stores true/false and audits', async () => {
    const on = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=true', headers: h });
    expect(on.json()).toEqual({ success: true, enabled: true });
    expect(setting('login_allowlist_enabled')).toBe('true');
    const off = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=false', headers: h });
    expect(off.json()).toEqual({ success: true, enabled: false });
    expect(setting('login_allowlist_enabled')).toBe('false');
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle', headers: h })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=maybe', headers: h })).statusCode).toBe(422);
    const one = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=1', headers: h });
    expect(one.json()).toEqual({ success: true, enabled: true });
    const no = await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=OFF', headers: h });
    expect(no.json()).toEqual({ success: true, enabled: false });
    expect((await audits('toggle_ip_allowlist')).length).toBe(4);
  });

  it('manual append drops duplicates and keeps order; 1..100 entries', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings/ip-allowlist/manual',
      headers: h,
      payload: { ips: ['198.51.100.7', '203.0.113.5', 'vpn.example.org', '198.51.100.7'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, manual_ips: ['203.0.113.5', '198.51.100.7', 'vpn.example.org'] });
    expect(setting('login_allowed_ips')).toBe('203.0.113.5,198.51.100.7,vpn.example.org');
    const manual = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/manual', headers: h, payload });
    expect((await manual({ ips: [] })).statusCode).toBe(422);
    expect((await manual({ ips: Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`) })).statusCode).toBe(422);
    expect((await manual({ ips: Array.from({ length: 100 }, (_, i) => `10.1.0.${i}`) })).statusCode).toBe(200);
    const bad = await manual({ ips: ['198.51.100.8', 'nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('nope');
    expect(setting('login_manual_ips')).not.toContain('198.51.100.8');
    expect((await audits('add_manual_ips')).length).toBe(2);
  });

  it('DELETE /ip-allowlist/ip removes a manual entry; 404 when absent', async () => {
    const del = (ip: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/settings/ip-allowlist/ip?ip=${encodeURIComponent(ip)}`, headers: h });
    const before = (await state()).manual_count;
    const res = await del('198.51.100.7');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, removed: '198.51.100.7', remaining: before - 1 });
    expect(setting('login_allowed_ips')).not.toContain('198.51.100.7');
    expect((await del('198.51.100.7')).statusCode).toBe(404);
    expect((await del('not-listed.example.com')).statusCode).toBe(404);
    expect((await audits('remove_allowlist_ip')).length).toBe(1);
  });

  it('the login guard enforces the union', async () => {
    const login = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    await save({ manual_ips: ['198.51.100.99'], subscription_url: '', enabled: true });
    const blocked = await login();
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().detail).toBe('ip_blocked');
    await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/manual', headers: h, payload: { ips: ['127.0.0.0/8'] } });
    expect((await login()).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/toggle?enabled=false', headers: h });
  });

  describe('parse-subscription', () => {
    const parse = (url: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/settings/ip-allowlist/parse-subscription', headers: h, payload: { url } });

    it('returns hosts and count, audited, without storing anything', async () => {
      const before = setting('login_subscription_ips');
      const res = await parse(sub);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ hosts: ['a.example.com', '198.51.100.1'], count: 2 });
      expect(setting('login_subscription_ips')).toBe(before);
      const rows = await audits('parse_subscription');
      expect(rows.length).toBe(1);
      expect(rows[0].detail ?? '').not.toContain('token=abc');
    });

    it('400 on schemes, blocked targets, redirects to private, bad status and empty results', async () => {
      for (const url of [
        'ftp://sub.example.test/x',
        'http://internal.example.test/',
        'http://10.0.0.1/',
        'http://169.254.169.254/',
        'http://[::ffff:10.0.0.1]/',
        'http://167772161/',
        `http://sub.example.test:${fake.port}/to-private`,
        `http://sub.example.test:${fake.port}/empty`,
        'http://no-such-host.example.test/',
      ]) {
        const res = await parse(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().detail).toEqual(expect.any(String));
      }
      expect((await parse('')).statusCode).toBe(422);
    });
  });
});

describe('parse-subscription without FLEET_ALLOW_PRIVATE_FETCH', () => {
  let t: TestApp;
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeServer((_req, res) => res.end('trojan://pw@a.example.com:443'));
    t = await makeTestApp({
      env: offlineEnv(),
      fetchResolver: async (host) => (host === 'sub.example.test' ? ['127.0.0.1'] : Promise.reject(new Error('ENOTFOUND'))),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('refuses loopback in every spelling before connecting', async () => {
    const p = fake.port;
    for (const url of [
      `http://127.0.0.1:${p}/`,
      `http://sub.example.test:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::1]:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://017700000001:${p}/`,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/settings/ip-allowlist/parse-subscription',
        headers: await t.auth(),
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
    }
    expect(fake.requests.length).toBe(0);
  });
});

describe('FLEET_ALLOW_PRIVATE_FETCH', () => {
  it('is read from the environment and logs a loud warning at start', async () => {
    const lines: string[] = [];
    const t = await makeTestApp({
      env: offlineEnv({ FLEET_ALLOW_PRIVATE_FETCH: '1' }),
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      expect(t.config.allowPrivateFetch).toBe(true);
      expect(lines.join('\n')).toMatch(/FLEET_ALLOW_PRIVATE_FETCH=1.*LOOPBACK/);
    } finally {
      await t.close();
    }
  });
});
