import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';
import { postToChannelUrl } from './test-sender.js';

const MASK = '********';
const HOOK_KEY = 'access_token=dt-secret-0123456789';

describe.each(dbKinds())('notification channels on %s', (db) => {
  let t: TestApp;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeServer((req, res) => {
      if (req.url.startsWith('/fail')) return sendJson(res, 400, { errcode: 310000, errmsg: 'keywords not in content' });
      return sendJson(res, 200, { ok: true });
    });
    t = await makeTestApp({ db, env: offlineEnv(), sendChannelTest: postToChannelUrl });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>) =>
    t.app.inject({ method, url: `/api/notification-channels${url}`, headers: headers ?? (await t.auth()), ...(payload === undefined ? {} : { payload: payload as object }) });
  const setting = async (key: string, value: string) =>
    expect((await t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: await t.auth(), payload: { value } })).statusCode).toBe(200);
  const audit = async (action: string) =>
    (await t.app.inject({ url: `/api/audit?action=${action}`, headers: await t.auth() })).json().items as Array<Record<string, unknown>>;
  const rawRow = (id: number) => t.app.services.db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const dingtalk = (name: string) => ({
    type: 'dingtalk',
    name,
    config: { webhook_url: `https://oapi.dingtalk.com/robot/send?${HOOK_KEY}`, secret: 'SECsign-123456' },
    events: ['alert_cpu', 'offline'],
    tags: [' web ', 'db', 'web'],
  });

  it('creates, lists, gets and updates with every secret masked, and stores secrets encrypted', async () => {
    const created = await call('POST', '', dingtalk('ops-dingtalk'));
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(created.json()).toMatchObject({
      name: 'ops-dingtalk', type: 'dingtalk', enabled: true, config: { webhook_url: MASK, secret: MASK },
      secrets_set: ['webhook_url', 'secret'], events: ['alert_cpu', 'offline'], tags: ['web', 'db'],
    });
    for (const res of [created, await call('GET', ''), await call('GET', `/${id}`)]) {
      expect(res.statusCode).toBe(200 + (res === created ? 1 : 0));
      expect(res.body).not.toContain('dt-secret');
      expect(res.body).not.toContain('SECsign');
    }
    expect((await call('GET', `/${id}`)).json().config).toEqual({ webhook_url: MASK, secret: MASK });

    const row = await rawRow(id);
    expect(row.secrets.startsWith('v1:')).toBe(true);
    expect(JSON.stringify(row)).not.toContain('dt-secret');
    expect(JSON.stringify(row)).not.toContain('SECsign');
    expect(JSON.parse(row.config)).toEqual({});

    // Sent back masked, the secrets stay; null clears the optional one; events replace.
    const upd = await call('PUT', `/${id}`, { name: 'ops-dt', config: { webhook_url: MASK, secret: null }, events: ['restart'], enabled: false });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ name: 'ops-dt', enabled: false, config: { webhook_url: MASK }, secrets_set: ['webhook_url'], events: ['restart'] });
    expect(upd.body).not.toContain('dt-secret');
    const byId = await t.app.services.notificationChannels.byId(id);
    expect(byId?.config).toEqual({ webhook_url: `https://oapi.dingtalk.com/robot/send?${HOOK_KEY}` });

    // Omitted, a secret stays too; a new value replaces it.
    await call('PUT', `/${id}`, { config: { secret: 'SECnew-654321' } });
    expect((await t.app.services.notificationChannels.byId(id))?.config).toEqual({
      webhook_url: `https://oapi.dingtalk.com/robot/send?${HOOK_KEY}`, secret: 'SECnew-654321',
    });

    for (const action of ['create_notification_channel', 'update_notification_channel']) {
      const rows = (await audit(action)).filter((a) => a.target_id === String(id));
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toMatch(/dt-secret|SECsign|SECnew/);
    }

    expect((await call('DELETE', `/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/${id}`)).json()).toEqual({ detail: 'Notification channel not found', code: 'channel_not_found' });
    expect((await call('DELETE', `/${id}`)).statusCode).toBe(404);
    expect((await audit('delete_notification_channel')).some((a) => a.target_id === String(id))).toBe(true);
  });

  it('refuses a taken name (409) and a change of type (400)', async () => {
    const a = (await call('POST', '', dingtalk('dup-a'))).json();
    const b = (await call('POST', '', dingtalk('dup-b'))).json();
    const again = await call('POST', '', dingtalk('dup-a'));
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('channel_name_exists');
    expect((await call('PUT', `/${b.id}`, { name: 'dup-a' })).json().code).toBe('channel_name_exists');
    const retype = await call('PUT', `/${a.id}`, { type: 'slack' });
    expect(retype.statusCode).toBe(400);
    expect(retype.json().code).toBe('channel_type_immutable');
    expect((await call('PUT', `/${a.id}`, { type: 'dingtalk', enabled: true })).statusCode).toBe(200);
    expect((await call('PUT', '/999999', { enabled: true })).statusCode).toBe(404);
  });

  it('reveals the secrets only with the admin password, never to the API key', async () => {
    const { id } = (await call('POST', '', dingtalk('reveal-me'))).json();
    const wrong = await call('POST', `/${id}/reveal`, { current_password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('wrong_password');
    const ok = await call('POST', `/${id}/reveal`, { current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id, name: 'reveal-me', secrets: { webhook_url: `https://oapi.dingtalk.com/robot/send?${HOOK_KEY}`, secret: 'SECsign-123456' } });
    expect((await audit('reveal_notification_channel')).some((a) => a.target_id === String(id))).toBe(true);

    const key = (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: await t.auth() })).json().value as string;
    const byKey = { 'x-api-key': key };
    expect((await call('GET', '', undefined, byKey)).statusCode).toBe(200);
    const refused = await call('POST', `/${id}/reveal`, { current_password: ADMIN_PASSWORD }, byKey);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('api_key_refused');
  });

  it('validates the config of every type, events and tags with a 400 naming the field', async () => {
    const types = (await call('GET', '/types')).json();
    expect(types.events).toContain('alert_cpu');
    expect(types.types.map((x: { type: string }) => x.type)).toHaveLength(13);
    const email = types.types.find((x: { type: string }) => x.type === 'email');
    expect(email).toMatchObject({ secret_fields: ['password'], url_fields: [], schema: { required: expect.arrayContaining(['host', 'to']) } });

    for (const { type } of types.types as Array<{ type: string }>) {
      const res = await call('POST', '', { type, name: `empty-${type}`, config: {}, events: [] });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().code, type).toBe('channel_config_invalid');
      expect(res.json().detail, type).toMatch(/is required/);
    }
    const bad = async (body: Record<string, unknown>, code: string, detail?: RegExp) => {
      const res = await call('POST', '', { type: 'webhook', name: 'bad', events: ['alert_cpu'], ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe(code);
      if (detail) expect(res.json().detail).toMatch(detail);
    };
    const hook = { url: 'https://hooks.example.com/x', method: 'POST', body_format: 'json' };
    await bad({ config: { ...hook, url: 'ftp://hooks.example.com/x' } }, 'channel_config_invalid', /url/);
    await bad({ config: { ...hook, method: 'DELETE' } }, 'channel_config_invalid', /method/);
    await bad({ config: { ...hook, colour: 'red' } }, 'channel_config_invalid', /unknown field colour/);
    await bad({ config: { ...hook, url: 'https://[zz' } }, 'channel_config_invalid', /url/);
    await bad({ config: { ...hook, headers: { 'X-Team': 'ops', host: 'evil.example' } } }, 'channel_config_invalid', /headers may not set host/i);
    await bad({ type: 'carrier-pigeon', config: hook }, 'channel_type_invalid');
    await bad({ config: hook, events: ['alert_cpu', 'lunch'] }, 'channel_event_invalid', /lunch/);
    await bad({ config: hook, tags: ['x'.repeat(65)] }, 'tag_invalid');
    await bad({ type: 'email', config: { host: 'smtp.example.com', port: 0, security: 'tls', from: 'a@b.c', to: ['d@e.f'] } }, 'channel_config_invalid', /port/);
    const ok = await call('POST', '', { type: 'webhook', name: 'good-hook', config: hook, events: [], tags: null });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ config: hook, secrets_set: [], tags: [], events: [] });
  });

  it('refuses private IP targets unless notify_allow_private_targets is on', async () => {
    const hook = (url: string, name: string) => ({ type: 'webhook', name, config: { url, method: 'POST', body_format: 'json' }, events: [] });
    for (const url of ['http://127.0.0.1:8080/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://2130706433/x', 'http://[::ffff:192.168.1.1]/']) {
      const res = await call('POST', '', hook(url, 'private'));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('channel_private_target');
    }
    const mail = { type: 'email', name: 'mail', events: [], config: { host: '192.168.0.5', port: 25, security: 'none', from: 'a@b.c', to: ['d@e.f'] } };
    expect((await call('POST', '', mail)).json().code).toBe('channel_private_target');
    // A host name is judged when sending (its address may change), not here.
    expect((await call('POST', '', hook('http://localhost/x', 'named'))).statusCode).toBe(201);

    await setting('notify_allow_private_targets', 'true');
    try {
      expect((await call('POST', '', hook('http://127.0.0.1:8080/x', 'private-ok'))).statusCode).toBe(201);
      expect((await call('POST', '', mail)).statusCode).toBe(201);
    } finally {
      await setting('notify_allow_private_targets', 'false');
    }
  });

  it('sends a test through the channel: 200 with the time, 502 with the provider text', async () => {
    await setting('notify_allow_private_targets', 'true');
    const mk = async (name: string, path: string, enabled = true) =>
      (await call('POST', '', { type: 'webhook', name, enabled, config: { url: `${fake.url}${path}`, method: 'POST', body_format: 'json', secret: 'hook-secret-42' }, events: ['alert_cpu'] })).json();
    const good = await mk('test-good', '/ok', false);
    const failing = await mk('test-bad', '/fail');
    await setting('notify_allow_private_targets', 'false');

    fake.requests.length = 0;
    const ok = await call('POST', `/${good.id}/test`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, ms: expect.any(Number) });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', url: '/ok', headers: { 'x-secret': 'hook-secret-42' } });
    expect(JSON.parse(fake.requests[0].body)).toMatchObject({ kind: 'test', channel: 'test-good' });

    const failed = await call('POST', `/${failing.id}/test`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ detail: expect.stringContaining('keywords not in content'), code: 'channel_delivery_failed' });
    expect((await call('POST', '/999999/test')).statusCode).toBe(404);

    const tests = (await audit('test_notification_channel')).filter((a) => [String(good.id), String(failing.id)].includes(String(a.target_id)));
    expect(tests.map((a) => String(a.detail)).sort()).toEqual([expect.stringMatching(/^result=failed/), expect.stringMatching(/^result=ok ms=/)]);
    expect(JSON.stringify(tests)).not.toContain('hook-secret-42');
  });

  it('hands delivery the enabled channels with their config decrypted', async () => {
    const on = (await call('POST', '', dingtalk('source-on'))).json();
    const off = (await call('POST', '', { ...dingtalk('source-off'), enabled: false })).json();
    const list = await t.app.services.notificationChannels.deliverable();
    const mine = list.find((c) => c.id === on.id);
    expect(mine).toEqual({
      id: on.id, name: 'source-on', type: 'dingtalk', events: ['alert_cpu', 'offline'], tags: ['web', 'db'],
      config: { webhook_url: `https://oapi.dingtalk.com/robot/send?${HOOK_KEY}`, secret: 'SECsign-123456' },
    });
    expect(list.some((c) => c.id === off.id)).toBe(false);
    expect((await t.app.services.notificationChannels.byId(off.id))?.config.secret).toBe('SECsign-123456');
    expect(await t.app.services.notificationChannels.byId(999999)).toBeNull();
  });
});
