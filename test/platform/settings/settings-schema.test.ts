/**
 * `GET /api/settings/schema`: each key's rule comes from the tables PUT validates with, so a value
 * the schema refuses is refused by PUT too, and one it admits is stored. The reveal of the API key
 * takes an optional current password (checked when given).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENUM_RULES, INTEGER_RULES, MUTABLE_KEYS, IMMUTABLE_KEYS, ACCESS_GUARD_KEYS } from '../../../src/platform/settings/setting-keys.js';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from './fake-http.js';

interface Descriptor {
  key: string;
  group: string;
  schema: { type: string; minimum?: number; maximum?: number; zero_off?: boolean; enum?: string[]; max_length?: number };
  secret: boolean;
  immutable: boolean;
  api_key_may_change: boolean;
  default: string | null;
  unset_means?: boolean;
}

describe.each(dbKinds())('settings schema on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    h = await t.auth();
  });
  afterAll(async () => t?.close());

  const schema = async () => {
    const res = await t.app.inject({ url: '/api/settings/schema', headers: h });
    expect(res.statusCode).toBe(200);
    return res.json() as { groups: string[]; settings: Descriptor[] };
  };
  const put = (key: string, value: unknown) => t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });

  it('needs a login, and is not read as a setting key', async () => {
    expect((await t.app.inject({ url: '/api/settings/schema' })).statusCode).toBe(401);
    const s = await schema();
    expect(Array.isArray(s.settings)).toBe(true);
  });

  it('lists every writable and immutable key once, each in a known group', async () => {
    const s = await schema();
    const keys = s.settings.map((d) => d.key).sort();
    expect(keys).toEqual([...MUTABLE_KEYS, ...IMMUTABLE_KEYS].sort());
    for (const d of s.settings) expect(s.groups).toContain(d.group);
    const by = new Map(s.settings.map((d) => [d.key, d]));
    expect(by.get('api_key')).toMatchObject({ secret: true, immutable: true, api_key_may_change: false, group: 'deployment' });
    expect(by.get('messenger_bot_token')).toMatchObject({ secret: true, immutable: false, api_key_may_change: true });
    for (const k of ACCESS_GUARD_KEYS) expect(by.get(k)?.api_key_may_change).toBe(false);
    expect(by.get('notify_recovery')).toMatchObject({ schema: { type: 'boolean' }, unset_means: true, group: 'notifications' });
    expect(by.get('theme')).toMatchObject({ schema: { type: 'string', enum: ['dark', 'light'] }, default: 'dark' });
  });

  it('serves the integer ranges and enums PUT applies: the edges pass, one beyond each is refused', async () => {
    const s = await schema();
    for (const d of s.settings.filter((x) => x.schema.type === 'integer')) {
      expect(INTEGER_RULES[d.key]).toMatchObject({ min: d.schema.minimum, max: d.schema.maximum });
      const { minimum, maximum } = d.schema as { minimum: number; maximum: number };
      if (d.api_key_may_change === false && d.key !== 'session_max_age_days') continue;
      for (const bad of [minimum - 1, maximum + 1]) {
        if (bad === 0 && d.schema.zero_off) continue;
        const res = await put(d.key, String(bad));
        expect(res.statusCode, `${d.key}=${bad}`).toBe(400);
        expect(res.json().code).toBe('setting_invalid_value');
      }
      expect((await put(d.key, String(maximum))).statusCode).toBe(200);
      expect((await put(d.key, String(minimum))).statusCode).toBe(200);
    }
    for (const d of s.settings.filter((x) => x.schema.enum)) {
      expect(d.schema.enum).toEqual(ENUM_RULES[d.key]);
      expect((await put(d.key, 'not-in-the-set')).statusCode).toBe(400);
      expect((await put(d.key, d.schema.enum![0])).statusCode).toBe(200);
    }
  });

  it('reveals the API key with the right password, refuses a wrong one (400 wrong_password), and still answers without one', async () => {
    const reveal = (payload?: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: h, ...(payload ? { payload } : {}) });
    const ok = await reveal({ current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().value).toMatch(/\S{16,}/);
    const wrong = await reveal({ current_password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('wrong_password');
    // The spec's call carries no body: it keeps working.
    expect((await reveal()).statusCode).toBe(200);
    const bad = await reveal({ current_password: 5 });
    expect(bad.statusCode).toBe(422);
  });
});
