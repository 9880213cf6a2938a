/**
 * Notifications against a loopback stand-in for the bot API: the token saved (masked, revealed
 * with the password), a chat discovered and picked from the list, a test message the fake receives,
 * the offline bot's own test, and an event switched off.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeServer } from '../platform/settings/fake-http.js';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const CHAT = { id: -100123456, type: 'supergroup', title: 'Ops on call' };
const PRIVATE = { id: 4242, type: 'private', first_name: 'Dana' };

const bot = await startFakeServer((req, res) => {
  const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url.split('?')[0]);
  const ok = (result: unknown) => sendJson(res, 200, { ok: true, result });
  switch (m?.[2]) {
    case 'getWebhookInfo':
      return ok({ url: '' });
    case 'deleteWebhook':
      return ok(true);
    case 'getUpdates':
      return ok([
        { update_id: 1, message: { message_id: 1, chat: PRIVATE, text: 'hi' } },
        { update_id: 2, message: { message_id: 2, chat: CHAT, text: 'hello' } },
      ]);
    case 'sendMessage':
      return ok({ message_id: 9 });
    default:
      return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
  }
});
afterAll(() => bot.close());

const e2e = setupE2E({ env: { MESSENGER_API_BASE: bot.url } });

/** The machine is shared: a page may take a few seconds to answer. */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

const sent = (token: string) =>
  bot.requests
    .filter((r) => r.url.startsWith(`/bot${token}/sendMessage`))
    .map((r) => (r.headers['content-type']?.includes('json') ? (JSON.parse(r.body) as { chat_id: unknown }) : Object.fromEntries(new URLSearchParams(r.body))));

describe.each(WIDTHS)('notifications at %s', (viewport) => {
  it('configures the bot, picks a discovered chat, sends a test message, switches an event off', async () => {
    const TOKEN = `${viewport === 'phone' ? 7 : 6}00:fake-token-${viewport}`;
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    await page.goto('/notifications');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'notifications.title'));
    const card = page.getByRole('region', { name: t(en, 'notifications.bots.default') });
    const tokenName = t(en, 'settings.keys.messenger_bot_token');

    await card.getByLabel(t(en, 'settings.newSecret', { name: tokenName })).fill(TOKEN);
    await card.getByRole('button', { name: t(en, 'settings.saveField', { name: tokenName }) }).click();
    await eventually(() => card.getByText(t(en, 'settings.secretSet')).count()).toBe(1);

    await card.getByRole('button', { name: t(en, 'notifications.findChats') }).click();
    await eventually(() => card.getByText(t(en, 'notifications.chatsFound', { count: 2 })).count()).toBe(1);
    await card.getByRole('radio', { name: new RegExp(CHAT.title) }).check();
    await card.getByRole('button', { name: t(en, 'notifications.useChat') }).click();
    await eventually(() => card.getByRole('textbox', { name: t(en, 'settings.keys.messenger_chat_id') }).inputValue()).toBe(String(CHAT.id));

    await card.getByRole('button', { name: t(en, 'notifications.sendTest') }).click();
    await eventually(() => sent(TOKEN).length).toBe(1);
    expect(String(sent(TOKEN)[0].chat_id)).toBe(String(CHAT.id));
    await expectAccessible(page);

    // Which events notify: one switch off, saved at once.
    const token = await e2e.svc.login();
    const recovery = page.getByRole('switch', { name: t(en, 'settings.keys.notify_recovery') });
    const before = await recovery.isChecked();
    await recovery.click({ force: true });
    await eventually(async () => (await e2e.svc.api<{ value: string }>('GET', '/api/settings/notify_recovery', undefined, { token })).body?.value)
      .toBe(before ? 'false' : 'true');
  });

  it('reveals the bot token after the password, and tests the offline bot on its own chat', async () => {
    const OFFLINE = `${viewport === 'phone' ? 9 : 8}00:offline-${viewport}`;
    const { page } = await e2e.signedIn(viewport, { colorScheme: 'dark' });
    await page.goto('/notifications');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'notifications.title'));
    const card = page.getByRole('region', { name: t(en, 'notifications.bots.offline') });
    const tokenName = t(en, 'settings.keys.messenger_offline_bot_token');
    await card.getByLabel(t(en, 'settings.newSecret', { name: tokenName })).fill(OFFLINE);
    await card.getByRole('button', { name: t(en, 'settings.saveField', { name: tokenName }) }).click();
    const chatName = t(en, 'settings.keys.messenger_offline_chat_id');
    const chatId = viewport === 'phone' ? '556' : '555';
    await card.getByRole('textbox', { name: chatName }).fill(chatId);
    await card.getByRole('button', { name: t(en, 'settings.saveField', { name: chatName }) }).click();
    await eventually(() => card.getByRole('button', { name: t(en, 'settings.reveal.button', { name: tokenName }) }).count()).toBe(1);

    await card.getByRole('button', { name: t(en, 'settings.reveal.button', { name: tokenName }) }).click();
    const dialog = page.getByRole('dialog', { name: t(en, 'settings.reveal.title', { name: tokenName }) });
    await dialog.getByLabel(t(en, 'settings.reveal.password')).fill(e2e.svc.admin.password);
    await dialog.getByRole('button', { name: t(en, 'settings.reveal.submit') }).click();
    await eventually(() => card.getByText(OFFLINE, { exact: true }).count()).toBe(1);

    await card.getByRole('button', { name: t(en, 'notifications.sendTest') }).click();
    await eventually(() => sent(OFFLINE).length).toBe(1);
    expect(String(sent(OFFLINE)[0].chat_id)).toBe(chatId);
    await expectAccessible(page);
  });
});

describe('notifications in Chinese', () => {
  it('shows the bots and the events in zh-CN', async () => {
    const { page } = await e2e.signedIn('phone');
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/notifications');
    await eventually(() => mainHeading(page).textContent()).toBe(t(zhCN, 'notifications.title'));
    await eventually(() => page.getByRole('region', { name: t(zhCN, 'notifications.bots.offline') }).count()).toBe(1);
    await eventually(() => page.getByRole('switch', { name: t(zhCN, 'settings.keys.notify_recovery') }).count()).toBe(1);
    await expectAccessible(page);
  });
});
