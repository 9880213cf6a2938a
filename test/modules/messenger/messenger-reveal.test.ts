/** The bot token reveals take an optional current password (the console always sends it). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';

describe.each(dbKinds())('messenger token reveal with a password on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    h = await t.auth();
    for (const [k, v] of [['messenger_bot_token', '111:default-SECRET'], ['messenger_offline_bot_token', '222:offline-SECRET']]) {
      expect((await t.app.inject({ method: 'PUT', url: `/api/settings/${k}`, headers: h, payload: { value: v } })).statusCode).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  it.each([
    ['/messenger/reveal-token', '111:default-SECRET', 'reveal_messenger_token'],
    ['/messenger/offline/reveal-token', '222:offline-SECRET', 'reveal_offline_messenger_token'],
  ])('%s: the right password reveals, a wrong one is 400 wrong_password and audited as a failure', async (path, value, action) => {
    const reveal = (payload?: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/settings${path}`, headers: h, ...(payload ? { payload } : {}) });
    const before = (await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute()).length;
    const wrong = await reveal({ current_password: 'nope-nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('wrong_password');
    expect((await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute()).length).toBe(before);
    const ok = await reveal({ current_password: ADMIN_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ key: expect.any(String), value });
    expect((await reveal()).statusCode).toBe(200);
  });
});
