/**
 * Without an injected sender, the test button sends through the messenger bot client (the one
 * type this build can reach) and says plainly that other types cannot send yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

describe('the interim test sender', () => {
  let t: TestApp;
  let bot: FakeServer;

  beforeAll(async () => {
    bot = await startFakeServer((req, res) =>
      req.url.includes('refused')
        ? sendJson(res, 400, { ok: false, description: 'Bad Request: chat not found' })
        : sendJson(res, 200, { ok: true, result: { message_id: 1 } }),
    );
    t = await makeTestApp({ env: offlineEnv({ MESSENGER_API_BASE: bot.url }) });
  });
  afterAll(async () => {
    await t?.close();
    await bot?.close();
  });

  const call = async (method: 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/notification-channels${url}`, headers: await t.auth(), ...(payload ? { payload } : {}) });
  const bot1 = (name: string, token: string) => ({ type: 'messenger', name, config: { bot_token: token, chat_id: '-42' }, events: ['offline'] });

  it('sends a messenger channel through the bot API, with the provider text on refusal', async () => {
    const ok = (await call('POST', '', bot1('bot-ok', '100:good'))).json();
    const res = await call('POST', `/${ok.id}/test`);
    expect(res.statusCode).toBe(200);
    const req = bot.requests.find((r) => r.url === '/bot100:good/sendMessage');
    expect(JSON.parse(req?.body ?? '{}')).toMatchObject({ chat_id: '-42', parse_mode: 'HTML', text: expect.stringContaining('bot-ok') });

    const bad = (await call('POST', '', bot1('bot-bad', '100:refused'))).json();
    const refused = await call('POST', `/${bad.id}/test`);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({ detail: 'Bad Request: chat not found', code: 'channel_delivery_failed' });
  });

  it('answers 502 for a type it cannot send yet', async () => {
    const hook = (await call('POST', '', { type: 'slack', name: 'slack', config: { webhook_url: 'https://hooks.slack.com/services/T/B/x' }, events: [] })).json();
    const res = await call('POST', `/${hook.id}/test`);
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/slack channels is not available/);
    expect(res.body).not.toContain('hooks.slack.com');
  });
});
