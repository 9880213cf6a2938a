import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import type { Logger } from '../../../src/core/logger.js';
import { NOTIFICATION_KINDS, NotificationService } from '../../../src/platform/notifications/notification.service.js';
import { SecretSettings } from '../../../src/platform/settings/secret-settings.js';
import { CLOSED_URL, offlineEnv, sendJson, startFakeServer, type FakeServer } from '../settings/fake-http.js';

const DEFAULT_TOKEN = '10:default-SECRET';
const OFFLINE_TOKEN = '20:offline-SECRET';

function recordingLogger(lines: string[]): Logger {
  const rec = (obj: unknown, msg?: string) => lines.push(`${msg ?? ''} ${JSON.stringify(obj)}`);
  const log: Logger = { info: rec, warn: rec, error: rec, debug: rec, child: () => log };
  return log;
}

describe.each(dbKinds())('NotificationService on %s', (db) => {
  let t: TestApp;
  let bot: FakeServer;
  let reject = false;

  beforeAll(async () => {
    bot = await startFakeServer((req, res) => {
      if (reject) return sendJson(res, 403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
      sendJson(res, 200, { ok: true, result: { message_id: 1 } });
    });
    t = await makeTestApp({ db, env: offlineEnv({ MESSENGER_API_BASE: bot.url }) });
  });
  afterAll(async () => {
    await t?.close();
    await bot?.close();
  });
  beforeEach(() => {
    bot.requests.length = 0;
    reject = false;
  });

  const c = () => t.app.services;
  const secrets = () => new SecretSettings(c().settings, c().cipher);
  const sent = () => bot.requests.map((r) => ({ token: r.url.split('/')[1].slice(3), body: JSON.parse(r.body) }));

  it('is in the container and does nothing (without throwing) while unconfigured', async () => {
    expect(c().notifications).toBeInstanceOf(NotificationService);
    for (const kind of NOTIFICATION_KINDS) expect(await c().notifications.notify(kind, '<b>x</b>')).toBe(false);
    expect(bot.requests).toHaveLength(0);
  });

  it('sends every kind through the default bot as HTML, on by default', async () => {
    await secrets().write('messenger_bot_token', DEFAULT_TOKEN);
    await c().settings.set('messenger_chat_id', '-42');
    for (const kind of NOTIFICATION_KINDS) expect(await c().notifications.notify(kind, `<b>${kind}</b>`)).toBe(true);
    expect(sent()).toHaveLength(NOTIFICATION_KINDS.length);
    expect(sent()[0]).toEqual({
      token: DEFAULT_TOKEN,
      body: expect.objectContaining({ chat_id: '-42', parse_mode: 'HTML', text: '<b>alert_cpu</b>' }),
    });
  });

  it('each kind is gated by its notify_* setting', async () => {
    await c().settings.set('notify_alert_cpu', 'false');
    await c().settings.set('notify_script_complete', '0');
    await c().settings.set('notify_restart', 'true');
    expect(await c().notifications.notify('alert_cpu', 'x')).toBe(false);
    expect(await c().notifications.notify('script_complete', 'x')).toBe(false);
    expect(await c().notifications.notify('restart', 'x')).toBe(true);
    expect(await c().notifications.notify('alert_mem', 'x')).toBe(true);
    expect(sent()).toHaveLength(2);
    await c().settings.set('notify_alert_cpu', 'true');
    await c().settings.set('notify_script_complete', 'true');
  });

  it('offline alerts use the offline bot only when its token and chat id are both set', async () => {
    await secrets().write('messenger_offline_bot_token', OFFLINE_TOKEN);
    await c().notifications.notify('alert_offline', 'down');
    expect(sent().at(-1)?.token).toBe(DEFAULT_TOKEN);
    await c().settings.set('messenger_offline_chat_id', '-77');
    await c().notifications.notify('alert_offline', 'down');
    expect(sent().at(-1)).toMatchObject({ token: OFFLINE_TOKEN, body: { chat_id: '-77' } });
    // Other kinds stay on the default bot.
    await c().notifications.notify('recovery', 'up');
    expect(sent().at(-1)?.token).toBe(DEFAULT_TOKEN);
  });

  it('a refused or failed send is logged without the token and never thrown', async () => {
    const lines: string[] = [];
    const svc = new NotificationService({ settings: c().settings, secrets: secrets(), apiBase: bot.url, log: recordingLogger(lines) });
    reject = true;
    expect(await svc.notify('alert_disk', 'x')).toBe(false);
    const down = new NotificationService({ settings: c().settings, secrets: secrets(), apiBase: CLOSED_URL, log: recordingLogger(lines) });
    expect(await down.notify('time_drift', 'x')).toBe(false);
    expect(lines.length).toBe(2);
    expect(lines.join('\n')).toContain('bot was blocked');
    expect(lines.join('\n')).not.toContain('SECRET');
  });

  it('a missing configuration is logged, not thrown', async () => {
    const lines: string[] = [];
    await c().settings.set('messenger_chat_id', '');
    const svc = new NotificationService({ settings: c().settings, secrets: secrets(), apiBase: bot.url, log: recordingLogger(lines) });
    expect(await svc.notify('system_db', 'x')).toBe(false);
    expect(lines.join('\n')).toMatch(/not configured/);
    expect(bot.requests).toHaveLength(0);
  });
});
