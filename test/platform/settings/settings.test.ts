import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { SettingsService } from '../../../src/platform/settings/settings.service.js';
import { SecretSettings } from '../../../src/platform/settings/secret-settings.js';
import { offlineEnv } from './fake-http.js';

describe.each(dbKinds())('settings on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    h = await t.auth();
  });
  afterAll(async () => t?.close());

  const get = (key: string) => t.app.inject({ url: `/api/settings/${key}`, headers: h });
  const put = (key: string, value: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });
  const storedRow = (key: string) =>
    t.app.services.db.selectFrom('settings').selectAll().where('key', '=', key).executeTakeFirst();
  const auditRows = (action: string) =>
    t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  it('needs an administrator', async () => {
    expect((await t.app.inject({ url: '/api/settings' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/settings/theme' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/settings/theme', payload: { value: 'light' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal' })).statusCode).toBe(401);
  });

  it('lists the immutable keys masked, database_url redacted, and the defaults', async () => {
    const res = await t.app.inject({ url: '/api/settings', headers: h });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<{ key: string; value: string | null; value_set: boolean | null; updated_at: string }>;
    const byKey = new Map(list.map((s) => [s.key, s]));
    for (const k of ['secret_key', 'encryption_key', 'api_key']) {
      expect(byKey.get(k)).toMatchObject({ key: k, value: '', value_set: true });
      expect(typeof byKey.get(k)!.updated_at).toBe('string');
    }
    const dbUrl = byKey.get('database_url')!;
    expect(dbUrl.value_set).toBeNull();
    expect(dbUrl.value).toMatch(db === 'postgres' ? /^postgres/ : /^sqlite/);
    expect(byKey.get('theme')).toMatchObject({ value: 'dark', value_set: null });
    expect(byKey.get('push_complete_sound')?.value).toBe('beep_double');
    expect(byKey.get('script_exec_complete_sound')?.value).toBe('beep_double');
    // No secret ever leaves in a listing (the database URL may name anything, so look for the key itself).
    const reveal = await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: h });
    const apiKey = String(reveal.json().value);
    expect(apiKey).toMatch(/^fa_/);
    expect(res.body).not.toContain(apiKey);
    expect(res.body).not.toContain(t.config.secretKey);
  });

  it('shows database_url with its password replaced by ***', async () => {
    const c = t.app.services;
    const svc = new SettingsService({
      settings: c.settings,
      secrets: new SecretSettings(c.settings, c.cipher),
      audit: c.audit,
      log: c.log,
      databaseUrl: 'postgres://fleet:hunter2@db.internal:5432/fleet',
      startedAt: new Date().toISOString(),
      syncPatrolEnv: async () => {},
      requireCurrentPassword: async () => {},
    });
    const v = await svc.get('database_url');
    expect(v.value).toBe('postgres://fleet:***@db.internal:5432/fleet');
    expect(v.value).not.toContain('hunter2');
  });

  it('a setting saved through one worker reads back at once through another (read from the database, not only its copy)', async () => {
    const other = await makeTestApp({ shareWith: t, env: offlineEnv() });
    try {
      const [ha, hb] = [await t.auth(), await other.auth()];
      for (let i = 0; i < 20; i++) {
        const value = `Read back ${i}`;
        const put = await t.app.inject({ method: 'PUT', url: '/api/settings/system_name', headers: ha, payload: { value } });
        expect(put.statusCode, put.body).toBe(200);
        const read = await other.app.inject({ method: 'GET', url: '/api/settings/system_name', headers: hb });
        expect(read.json().value).toBe(value);
      }
    } finally {
      await other.close();
    }
  });

  it('GET /{key}: defaults, 404 for no row and no default or an unknown key', async () => {
    expect((await get('theme')).json()).toMatchObject({ key: 'theme', value: 'dark', value_set: null });
    expect((await get('script_exec_complete_sound')).json().value).toBe('beep_double');
    expect((await get('system_title')).statusCode).toBe(404);
    expect((await get('no_such_key')).statusCode).toBe(404);
    expect((await get('login_subscription_last_refresh')).statusCode).toBe(404);
    const api = await get('api_key');
    expect(api.json()).toMatchObject({ key: 'api_key', value: '', value_set: true });
  });

  it('PUT rule 1: immutable and unknown keys are 403 and store nothing', async () => {
    for (const key of ['secret_key', 'api_key', 'encryption_key', 'database_url']) {
      const before = await storedRow(key);
      const res = await put(key, 'x');
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toEqual(expect.any(String));
      expect(await storedRow(key)).toEqual(before);
    }
    const unknown = await put('not_a_setting', 'x');
    expect(unknown.statusCode).toBe(403);
    expect(await storedRow('not_a_setting')).toBeUndefined();
    expect((await put('login_subscription_last_refresh', 'x')).statusCode).toBe(403);
  });

  it('PUT stores, answers {key, value}, audits update_setting and applies at once', async () => {
    const res = await put('system_name', 'Fleet One');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: 'system_name', value: 'Fleet One' });
    expect((await get('system_name')).json()).toMatchObject({ key: 'system_name', value: 'Fleet One', value_set: null });
    expect(t.app.services.settings.get('system_name')).toBe('Fleet One');
    const audits = await auditRows('update_setting');
    expect(audits.at(-1)).toMatchObject({ detail: 'key=system_name', admin_username: 'admin' });
    expect((await storedRow('system_name'))?.value).toBe('Fleet One');
  });

  it('PUT rule 3: enum keys', async () => {
    expect((await put('theme', 'purple')).statusCode).toBe(400);
    expect((await put('push_complete_sound', 'loud')).statusCode).toBe(400);
    expect((await put('script_exec_complete_sound', null)).statusCode).toBe(400);
    expect(await storedRow('theme')).toBeUndefined();
    expect((await put('theme', 'light')).json()).toEqual({ key: 'theme', value: 'light' });
    for (const s of ['off', 'beep_short', 'beep_double', 'chime_soft']) {
      expect((await put('push_complete_sound', s)).statusCode).toBe(200);
    }
    // editor_theme has no validator.
    expect((await put('editor_theme', 'vs-dark')).statusCode).toBe(200);
  });

  it('PUT rule 4: integer keys and their ranges', async () => {
    const cases: Array<[string, unknown[], unknown[]]> = [
      ['db_pool_size', ['1', '1000', 20], ['0', '1001', 'ten', '1.5', '', null]],
      ['db_max_overflow', ['1', '1000'], ['0', '1001']],
      ['heartbeat_timeout', ['10', '600', ' 90 '], ['9', '601', '9e1']],
      ['cpu_alert_threshold', ['1', '100'], ['0', '101', '-5']],
      ['mem_alert_threshold', ['50'], ['abc']],
      ['disk_alert_threshold', [80], [200]],
    ];
    for (const [key, good, bad] of cases) {
      for (const v of bad) {
        const res = await put(key, v);
        expect(res.statusCode, `${key}=${String(v)}`).toBe(400);
      }
      for (const v of good) {
        const res = await put(key, v);
        expect(res.statusCode, `${key}=${String(v)}`).toBe(200);
        expect(res.json().value).toBe(String(Number(String(v).trim())));
      }
    }
    expect(t.app.services.settings.getInt('heartbeat_timeout', 0)).toBe(90);
  });

  it('a body without value is a 422', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/settings/system_name', headers: h, payload: {} });
    expect(res.statusCode).toBe(422);
  });

  it('PUT rule 2 and 8: sensitive values are masked, encrypted at rest and a blank value keeps them', async () => {
    const blank = await put('messenger_offline_bot_token', '   ');
    expect(blank.statusCode).toBe(400);
    expect(await storedRow('messenger_offline_bot_token')).toBeUndefined();

    const res = await put('messenger_offline_bot_token', '123456:SECRET-token');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: 'messenger_offline_bot_token', value: '123456:SECRET-token' });
    const row = await storedRow('messenger_offline_bot_token');
    expect(row?.value).toMatch(/^v1:/);
    expect(row?.value).not.toContain('SECRET');
    const shown = (await get('messenger_offline_bot_token')).json();
    expect(shown).toMatchObject({ value: '', value_set: true });

    const kept = await put('messenger_offline_bot_token', '');
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ key: 'messenger_offline_bot_token', value: '', value_set: true });
    expect((await storedRow('messenger_offline_bot_token'))?.value).toBe(row?.value);
    const list = await t.app.inject({ url: '/api/settings', headers: h });
    expect(list.body).not.toContain('SECRET');
  });

  it('PUT rule 7: bot token and chat id are mirrored to the patrol env file (0600)', async () => {
    expect((await put('messenger_bot_token', '42:abc')).statusCode).toBe(200);
    expect((await put('messenger_chat_id', '-1001')).statusCode).toBe(200);
    const file = path.join(t.dataDir, 'patrol', 'messenger.env');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain("MESSENGER_BOT_TOKEN='42:abc'");
    expect(text).toContain("MESSENGER_CHAT_ID='-1001'");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('POST /api-key/reveal returns the working API key and audits', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: h });
    expect(res.statusCode).toBe(200);
    const { key, value } = res.json();
    expect(key).toBe('api_key');
    expect(value).toMatch(/^fa_/);
    const viaKey = await t.app.inject({ url: '/api/settings/theme', headers: { 'x-api-key': value } });
    expect(viaKey.statusCode).toBe(200);
    expect((await auditRows('reveal_api_key')).length).toBeGreaterThan(0);
  });

  it('POST /api-key/reveal is 404 when no API key is stored', async () => {
    const c = t.app.services;
    const stored = c.settings.get('api_key');
    await c.settings.delete('api_key');
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: h });
      expect(res.statusCode).toBe(404);
    } finally {
      await c.settings.set('api_key', stored);
    }
  });

  it('fixed routes win over /{key}', async () => {
    const allow = await get('ip-allowlist');
    expect(allow.statusCode).toBe(200);
    expect(allow.json()).toHaveProperty('enabled');
    expect(allow.json()).not.toHaveProperty('key');
    // Public although GET /{key} is not.
    const wp = await t.app.inject({ url: '/api/settings/daily-wallpapers' });
    expect(wp.statusCode).toBe(200);
    expect(wp.json()).toMatchObject({ urls: expect.any(Array), count: expect.any(Number) });
    const one = await t.app.inject({ url: '/api/settings/daily-wallpaper' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toHaveProperty('url');
    const patrol = await get('ops-patrol/status');
    expect(patrol.json()).toHaveProperty('cron_install_command');
    expect((await t.app.inject({ url: '/api/settings/messenger/chats' })).statusCode).toBe(401);
    // The write side of /{key} still treats fixed words as (unknown) keys.
    expect((await put('ip-allowlist', 'x')).statusCode).toBe(403);
    expect((await put('daily-wallpapers', 'x')).statusCode).toBe(403);
  });
});

describe('settings with a failing patrol env directory', () => {
  it('still saves the token; the env failure is only logged', async () => {
    const t = await makeTestApp({ env: offlineEnv() });
    try {
      fs.writeFileSync(path.join(t.dataDir, 'patrol'), 'not a directory');
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/settings/messenger_bot_token',
        headers: await t.auth(),
        payload: { value: '7:xyz' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ key: 'messenger_bot_token', value: '7:xyz' });
      expect(t.app.services.settings.has('messenger_bot_token')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
