import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import type { Logger } from '../../../src/core/logger.js';
import { NotificationService } from '../../../src/platform/notifications/notification.service.js';
import type { NotificationEvent } from '../../../src/platform/notifications/notification-events.js';
import { OutboxRepository } from '../../../src/platform/notifications/outbox.repository.js';
import { eventually } from '../../modules/agent/agent-helpers.js';
import { SecretSettings } from '../../../src/platform/settings/secret-settings.js';
import { CLOSED_URL, offlineEnv, sendJson, startFakeServer, type FakeServer } from '../settings/fake-http.js';

const DEFAULT_TOKEN = '10:default-SECRET';
const OFFLINE_TOKEN = '20:offline-SECRET';
const server = { id: 1, name: 'web-1', tags: [] };

/** One event of each legacy kind the messenger bot has always received, with its kind. */
const LEGACY: Array<[string, NotificationEvent]> = [
  ['alert_cpu', { kind: 'alert_cpu', server, value: 97, threshold: 80 }],
  ['alert_mem', { kind: 'alert_mem', server, value: 91, threshold: 90 }],
  ['alert_disk', { kind: 'alert_disk', server, value: 95, threshold: 90 }],
  ['alert_offline', { kind: 'offline', server, timeoutS: 90 }],
  ['recovery', { kind: 'recovery_cpu', server, value: 10 }],
  ['time_drift', { kind: 'time_drift', server, driftS: 120, recovered: false }],
  ['system_cache', { kind: 'infrastructure', component: 'cache', up: false, systemName: 'fleet' }],
  ['system_db', { kind: 'infrastructure', component: 'db', up: false, systemName: 'fleet' }],
  ['restart', { kind: 'restart', systemName: 'fleet', version: '1.2.3' }],
  ['script_complete', { kind: 'script_complete', label: 'uptime', results: [] }],
];

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

  /** A service of its own (the app's delivery loop also runs, on the same outbox: either may deliver). */
  const service = (log: Logger, apiBase = bot.url) =>
    new NotificationService({ settings: c().settings, secrets: secrets(), apiBase, log, outbox: new OutboxRepository(c().db), owner: `test-${Math.random()}` });
  const settle = async () => {
    await c().notifications.delivery.idle();
    await new Promise((r) => setTimeout(r, 200));
    await c().notifications.delivery.runOnce();
  };

  it('is in the container and queues nothing (without throwing) while unconfigured', async () => {
    expect(c().notifications).toBeInstanceOf(NotificationService);
    for (const [, e] of LEGACY) expect(await c().notifications.notify(e)).toBe(0);
    await settle();
    expect(bot.requests).toHaveLength(0);
  });

  it('sends every legacy kind through the default bot as HTML, on by default; push_failed never goes to the bot', async () => {
    await secrets().write('messenger_bot_token', DEFAULT_TOKEN);
    await c().settings.set('messenger_chat_id', '-42');
    for (const [, e] of LEGACY) expect(await c().notifications.notify(e)).toBe(1);
    expect(await c().notifications.notify({ kind: 'push_failed', batchId: 'b', failed: 1, total: 2, servers: ['x'] })).toBe(0);
    await eventually(async () => sent().length === LEGACY.length);
    await settle();
    expect(sent()).toHaveLength(LEGACY.length);
    expect(sent().map((s) => s.body.text)).toContain('🔴 <b>CPU alert</b> on <b>web-1</b>: 97% (threshold 80%)');
    expect(sent()[0]).toEqual({ token: DEFAULT_TOKEN, body: expect.objectContaining({ chat_id: '-42', parse_mode: 'HTML' }) });
  });

  it('each kind is gated by its notify_* setting', async () => {
    await c().settings.set('notify_alert_cpu', 'false');
    await c().settings.set('notify_script_complete', '0');
    await c().settings.set('notify_restart', 'true');
    const other = { id: 2, name: 'web-2', tags: [] };
    expect(await c().notifications.notify({ kind: 'alert_cpu', server: other, value: 99, threshold: 80 })).toBe(0);
    expect(await c().notifications.notify({ kind: 'script_complete', label: 'x', results: [] })).toBe(0);
    expect(await c().notifications.notify({ kind: 'restart', systemName: 'fleet', version: '2' })).toBe(1);
    expect(await c().notifications.notify({ kind: 'alert_mem', server: other, value: 99, threshold: 80 })).toBe(1);
    await eventually(async () => sent().length === 2);
    await settle();
    expect(sent()).toHaveLength(2);
    await c().settings.set('notify_alert_cpu', 'true');
    await c().settings.set('notify_script_complete', 'true');
  });

  it('offline alerts and back-online notices use the offline bot only when its token and chat id are both set', async () => {
    const s3 = { id: 3, name: 'dark', tags: [] };
    await secrets().write('messenger_offline_bot_token', OFFLINE_TOKEN);
    await c().notifications.notify({ kind: 'offline', server: s3, timeoutS: 60 });
    await eventually(async () => sent().length === 1);
    expect(sent().at(-1)?.token).toBe(DEFAULT_TOKEN);
    await c().settings.set('messenger_offline_chat_id', '-77');
    await c().notifications.notify({ kind: 'online', server: s3 });
    await eventually(async () => sent().length === 2);
    expect(sent().at(-1)).toMatchObject({ token: OFFLINE_TOKEN, body: { chat_id: '-77' } });
    // Other kinds stay on the default bot.
    await c().notifications.notify({ kind: 'recovery_disk', server: s3, value: 10 });
    await eventually(async () => sent().length === 3);
    expect(sent().at(-1)?.token).toBe(DEFAULT_TOKEN);
  });

  it('a refused send is logged without the token and never thrown', async () => {
    const lines: string[] = [];
    await c().notifications.stopDelivery();
    const svc = service(recordingLogger(lines));
    reject = true;
    expect(await svc.notify({ kind: 'alert_disk', server: { id: 9, name: 'r', tags: [] }, value: 99, threshold: 90 })).toBe(1);
    await svc.delivery.runOnce();
    const down = service(recordingLogger(lines), CLOSED_URL);
    expect(await down.notify({ kind: 'time_drift', server: { id: 9, name: 'r', tags: [] }, driftS: 99, recovered: false })).toBe(1);
    await down.delivery.runOnce();
    expect(lines.join('\n')).toContain('bot was blocked');
    expect(lines.join('\n')).toMatch(/request failed|ECONNREFUSED/);
    expect(lines.join('\n')).not.toContain('SECRET');
    c().notifications.startDelivery();
  });

  it('a missing configuration is logged, not thrown', async () => {
    const lines: string[] = [];
    await c().settings.set('messenger_chat_id', '');
    const svc = service(recordingLogger(lines));
    expect(await svc.notify({ kind: 'infrastructure', component: 'db', up: true, systemName: 'x' })).toBe(0);
    expect(lines.join('\n')).toMatch(/not configured/);
    await settle();
    expect(bot.requests).toHaveLength(0);
  });

  it('with the database away nothing throws; a database-lost notice goes straight to the bot', async () => {
    await c().settings.set('messenger_chat_id', '-42');
    const lines: string[] = [];
    const broken = new OutboxRepository(c().db);
    broken.enqueue = async () => Promise.reject(new Error('connection refused'));
    broken.recentDedupKeys = async () => Promise.reject(new Error('connection refused'));
    const svc = new NotificationService({ settings: c().settings, secrets: secrets(), apiBase: bot.url, log: recordingLogger(lines), outbox: broken, owner: 'x' });
    expect(await svc.notify({ kind: 'alert_cpu', server: { id: 70, name: 'db-down', tags: [] }, value: 99, threshold: 80 })).toBe(0);
    expect(await svc.notify({ kind: 'infrastructure', component: 'db', up: false, systemName: 'fleet' })).toBe(0);
    await eventually(async () => sent().some((m) => String(m.body.text).includes('Database connection lost')));
    expect(sent().some((m) => String(m.body.text).includes('db-down'))).toBe(false);
    expect(lines.join('\n')).toMatch(/could not be queued/);
  });

  it('a notice waiting behind one of the same alert whose write failed queues its own row', async () => {
    await c().settings.set('messenger_chat_id', '-42');
    const outbox = new OutboxRepository(c().db);
    const enqueue = outbox.enqueue.bind(outbox);
    let failNext = true;
    outbox.enqueue = async (rows) => {
      if (!failNext) return enqueue(rows);
      failNext = false;
      throw new Error('connection refused');
    };
    const svc = new NotificationService({ settings: c().settings, secrets: secrets(), apiBase: bot.url, log: recordingLogger([]), outbox, owner: 'x' });
    const alert: NotificationEvent = { kind: 'alert_cpu', server: { id: 71, name: 'flapping', tags: [] }, value: 99, threshold: 80 };
    expect(await Promise.all([svc.notify(alert), svc.notify(alert)])).toEqual([0, 1]);
    const queued = await c().db.selectFrom('notification_outbox').select('dedup_key').where('dedup_key', 'like', 'alert_cpu:71:%').execute();
    expect(queued).toHaveLength(1);
  });
});
