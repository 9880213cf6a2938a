import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer, type RecordedRequest } from '../../platform/settings/fake-http.js';

const TOKEN = '111:default-SECRET';
const OFFLINE = '222:offline-SECRET';

/** A Telegram-compatible bot API: per-method replies can be swapped by tests. */
interface BotScript {
  sendMessage: () => [number, unknown];
  getWebhookInfo: () => [number, unknown];
  deleteWebhook: () => [number, unknown];
  getUpdates: () => [number, unknown];
}

const ok = (result: unknown): [number, unknown] => [200, { ok: true, result }];

function defaultScript(): BotScript {
  return {
    sendMessage: () => ok({ message_id: 1 }),
    getWebhookInfo: () => ok({ url: '' }),
    deleteWebhook: () => ok(true),
    getUpdates: () => ok([]),
  };
}

const chat = (id: number, type: string, extra: Record<string, unknown> = {}) => ({ id, type, ...extra });

describe.each(dbKinds())('messenger bot channel on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  let bot: FakeServer;
  let script = defaultScript();

  beforeAll(async () => {
    bot = await startFakeServer((req, res) => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url.split('?')[0]);
      const method = m?.[2] as keyof BotScript | undefined;
      if (!m || !method || !script[method]) return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const [status, body] = script[method]();
      sendJson(res, status, body);
    });
    t = await makeTestApp({ db, env: offlineEnv({ MESSENGER_API_BASE: bot.url }) });
    h = await t.auth();
  });
  afterAll(async () => {
    await t?.close();
    await bot?.close();
  });
  beforeEach(() => {
    script = defaultScript();
    bot.requests.length = 0;
  });

  const post = (url: string) => t.app.inject({ method: 'POST', url: `/api/settings${url}`, headers: h });
  const get = (url: string) => t.app.inject({ url: `/api/settings${url}`, headers: h });
  const put = (key: string, value: string) =>
    t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });
  const calls = (method: string): RecordedRequest[] => bot.requests.filter((r) => r.url.endsWith(`/${method}`));

  it('needs an administrator', async () => {
    for (const [method, url] of [
      ['POST', '/messenger/test'],
      ['POST', '/messenger/reveal-token'],
      ['GET', '/messenger/chats'],
      ['POST', '/messenger/offline/test'],
      ['POST', '/messenger/offline/reveal-token'],
      ['GET', '/messenger/offline/chats'],
    ] as const) {
      expect((await t.app.inject({ method, url: `/api/settings${url}` })).statusCode).toBe(401);
    }
  });

  it('unconfigured: 400 for test and chats, 404 for reveal, no outbound call', async () => {
    expect((await post('/messenger/test')).statusCode).toBe(400);
    expect((await get('/messenger/chats')).statusCode).toBe(400);
    expect((await post('/messenger/reveal-token')).statusCode).toBe(404);
    expect((await post('/messenger/offline/test')).statusCode).toBe(400);
    expect((await get('/messenger/offline/chats')).statusCode).toBe(400);
    expect((await post('/messenger/offline/reveal-token')).statusCode).toBe(404);
    expect(bot.requests).toHaveLength(0);
    // A token without chat id is still not enough to send.
    await put('messenger_bot_token', TOKEN);
    expect((await post('/messenger/test')).statusCode).toBe(400);
    expect(bot.requests).toHaveLength(0);
  });

  it('test sends an HTML message through the default bot', async () => {
    await put('messenger_bot_token', TOKEN);
    await put('messenger_chat_id', '-100200');
    const res = await post('/messenger/test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const [sent] = calls('sendMessage');
    expect(sent.url).toBe(`/bot${TOKEN}/sendMessage`);
    const payload = JSON.parse(sent.body);
    expect(payload).toMatchObject({ chat_id: '-100200', parse_mode: 'HTML' });
    expect(payload.text).toEqual(expect.any(String));
  });

  it('502 with the bot API description on rejection and on request failure', async () => {
    script.sendMessage = () => [400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' }];
    const res = await post('/messenger/test');
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBe('Messenger API: Bad Request: chat not found');
    script.sendMessage = () => [200, 'not json'];
    expect((await post('/messenger/test')).statusCode).toBe(502);
  });

  it('reveal-token returns the plain token and audits', async () => {
    const res = await post('/messenger/reveal-token');
    expect(res.json()).toEqual({ key: 'messenger_bot_token', value: TOKEN });
    const rows = await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'reveal_messenger_token').execute();
    expect(rows.length).toBe(1);
    expect(JSON.stringify(rows)).not.toContain('SECRET');
  });

  it('chats: clears an active webhook, reads 100 updates, sorts then keeps 10', async () => {
    script.getWebhookInfo = () => ok({ url: 'https://hook.example.com/x' });
    const updates = [
      { update_id: 1, message: { chat: chat(500, 'private', { first_name: 'Ann', username: 'ann' }) } },
      { update_id: 2, edited_message: { chat: chat(-300, 'group', { title: 'Ops' }) } },
      { update_id: 3, channel_post: { chat: chat(-1002, 'channel', { title: 'News', username: 'news' }) } },
      { update_id: 4, my_chat_member: { chat: chat(-1001, 'supergroup', { title: 'SG' }) } },
      { update_id: 5, chat_member: { chat: chat(-1000, 'supergroup', { title: 'SG2' }) } },
      { update_id: 6, callback_query: { id: 'q', message: { chat: chat(-200, 'group', { title: 'CB' }) } } },
      { update_id: 7, message: { chat: chat(400, 'private', { username: 'only_user' }) } },
      { update_id: 8, message: { chat: chat(300, 'private') } },
      { update_id: 9, message: { chat: chat(500, 'private', { first_name: 'Ann', username: 'ann' }) } },
      ...Array.from({ length: 5 }, (_, i) => ({ update_id: 10 + i, message: { chat: chat(600 + i, 'private', { first_name: `P${i}` }) } })),
      { update_id: 20, poll: { id: 'x' } },
    ];
    script.getUpdates = () => ok(updates);
    const res = await get('/messenger/chats');
    expect(res.statusCode).toBe(200);
    const { chats, count } = res.json();
    expect(count).toBe(10);
    expect(chats.map((c: { id: number }) => c.id)).toEqual([-1001, -1000, -300, -200, -1002, 300, 400, 500, 600, 601]);
    expect(chats[0]).toEqual({ id: -1001, type: 'supergroup', title: 'SG', username: null });
    expect(chats.find((c: { id: number }) => c.id === 500).title).toBe('Ann');
    expect(chats.find((c: { id: number }) => c.id === 400)).toMatchObject({ title: 'only_user', username: 'only_user' });
    expect(chats.find((c: { id: number }) => c.id === 300).title).toBe('');
    expect(bot.requests.map((r) => r.url.split('/').pop())).toEqual(['getWebhookInfo', 'deleteWebhook', 'getUpdates']);
    expect(JSON.parse(calls('getUpdates')[0].body).limit).toBe(100);
  });

  it('chats: no deleteWebhook without a webhook; 502 when the webhook cannot be cleared or read', async () => {
    script.getUpdates = () => ok([{ update_id: 1, message: { chat: chat(1, 'private', { first_name: 'A' }) } }]);
    const res = await get('/messenger/chats');
    expect(res.json()).toEqual({ chats: [{ id: 1, type: 'private', title: 'A', username: null }], count: 1 });
    expect(calls('deleteWebhook')).toHaveLength(0);

    script.getWebhookInfo = () => ok({ url: 'https://hook.example.com/x' });
    script.deleteWebhook = () => [401, { ok: false, error_code: 401, description: 'Unauthorized' }];
    const failed = await get('/messenger/chats');
    expect(failed.statusCode).toBe(502);
    expect(failed.json().detail).toBe('Messenger API: Unauthorized');
    expect(calls('getUpdates')).toHaveLength(1);

    script = defaultScript();
    script.getWebhookInfo = () => [500, { ok: false, description: 'Internal' }];
    expect((await get('/messenger/chats')).statusCode).toBe(502);
    script = defaultScript();
    script.getUpdates = () => [409, { ok: false, description: 'Conflict: terminated by other getUpdates request' }];
    const conflict = await get('/messenger/chats');
    expect(conflict.statusCode).toBe(502);
    expect(conflict.json().detail).toContain('Conflict');
  });

  it('the offline bot has its own token, chat id and audit action', async () => {
    await put('messenger_offline_bot_token', OFFLINE);
    expect((await post('/messenger/offline/test')).statusCode).toBe(400);
    await put('messenger_offline_chat_id', '777');
    const res = await post('/messenger/offline/test');
    expect(res.statusCode).toBe(200);
    expect(calls('sendMessage')[0].url).toBe(`/bot${OFFLINE}/sendMessage`);
    expect(JSON.parse(calls('sendMessage')[0].body).chat_id).toBe('777');
    const reveal = await post('/messenger/offline/reveal-token');
    expect(reveal.json()).toEqual({ key: 'messenger_offline_bot_token', value: OFFLINE });
    const rows = await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'reveal_offline_messenger_token').execute();
    expect(rows.length).toBe(1);
    script.getUpdates = () => ok([{ update_id: 1, message: { chat: chat(9, 'private', { first_name: 'Z' }) } }]);
    const chats = await get('/messenger/offline/chats');
    expect(chats.json().count).toBe(1);
    expect(bot.requests.every((r) => r.url.startsWith(`/bot${OFFLINE}/`) || r.url.includes('sendMessage'))).toBe(true);
  });
});

describe('messenger API unreachable', () => {
  it('is a 502, and the token never appears in the answer', async () => {
    const t = await makeTestApp({ env: offlineEnv() });
    try {
      const h = await t.auth();
      for (const [key, value] of [['messenger_bot_token', TOKEN], ['messenger_chat_id', '1']]) {
        await t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });
      }
      const res = await t.app.inject({ method: 'POST', url: '/api/settings/messenger/test', headers: h });
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toMatch(/^Messenger API: /);
      expect(res.body).not.toContain('SECRET');
      const chats = await t.app.inject({ url: '/api/settings/messenger/chats', headers: h });
      expect(chats.statusCode).toBe(502);
    } finally {
      await t.close();
    }
  });
});
