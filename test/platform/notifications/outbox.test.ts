/**
 * The outbox end to end on each database: routing by event and tag behind the global switches,
 * retries with backoff on an injected clock, dedup, the per-channel rate limit, the one
 * channel-failing notice, two delivery loops sharing a database, and a lease left by a crash.
 * Channels are webhook-like loopback fakes (see outbox-helpers.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/core/logger.js';
import type { ChannelEvent, DeliverableChannel } from '../../../src/platform/notifications/channel-contract.js';
import { NotificationService } from '../../../src/platform/notifications/notification.service.js';
import type { NotificationEvent } from '../../../src/platform/notifications/notification-events.js';
import type { DeliveryOptions } from '../../../src/platform/notifications/outbox-delivery.js';
import { OutboxRepository } from '../../../src/platform/notifications/outbox.repository.js';
import { SecretSettings } from '../../../src/platform/settings/secret-settings.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../settings/fake-http.js';
import { memorySource, postingNotifier, webhookChannel } from './outbox-helpers.js';

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent };
const T0 = Date.parse('2026-11-27T00:00:00Z');

describe.each(dbKinds())('notification outbox on %s', (db) => {
  let t: TestApp;
  let t2: TestApp;
  let fake: FakeServer;
  /** Status each path answers (default 200), and how long it waits first (default 0). */
  const status = new Map<string, number>();
  const delays = new Map<string, number>();
  let clock = T0;

  beforeAll(async () => {
    fake = await startFakeServer((req, res) => {
      setTimeout(() => sendJson(res, status.get(req.url) ?? 200, {}), delays.get(req.url) ?? 0);
    });
    t = await makeTestApp({ db, env: offlineEnv({ MESSENGER_API_BASE: fake.url }) });
    t2 = await makeTestApp({ db, shareWith: t });
    // These tests drive their own services on an injected clock.
    await t.app.services.notifications.stopDelivery();
    await t2.app.services.notifications.stopDelivery();
  });
  afterAll(async () => {
    await t2?.close();
    await t?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    fake.requests.length = 0;
    status.clear();
    delays.clear();
    clock += 3600_000; // past every earlier test's dedup window and backoff
    await t.app.services.db.deleteFrom('notification_outbox').execute();
  });

  const hook = (id: number, events: ChannelEvent[], tags: string[] = []) => webhookChannel(id, `${fake.url}/hook/${id}`, events, tags);
  const received = (id: number) => fake.requests.filter((r) => r.url === `/hook/${id}`).map((r) => JSON.parse(r.body) as { title: string; kind: string });
  const service = (channels: DeliverableChannel[], app = t, delivery: Partial<DeliveryOptions> = {}) =>
    new NotificationService({
      settings: app.app.services.settings,
      secrets: new SecretSettings(app.app.services.settings, app.app.services.cipher),
      apiBase: fake.url,
      log: silent,
      outbox: new OutboxRepository(app.app.services.db),
      owner: `owner-${Math.random()}`,
      channels: memorySource(channels),
      createChannelNotifier: postingNotifier,
      now: () => clock,
      delivery: { backoffMs: [5_000, 30_000], ...delivery },
    });
  const cpu = (id: number, tags: string[] = []): NotificationEvent => ({ kind: 'alert_cpu', server: { id, name: `srv-${id}`, tags }, value: 99, threshold: 80 });
  const rows = () => t.app.services.db.selectFrom('notification_outbox').selectAll().orderBy('id').execute();

  it('routes by event and by tag; events without a server reach every subscribed channel; the global switch comes first', async () => {
    const svc = service([hook(1, ['alert_cpu']), hook(2, ['alert_cpu', 'restart'], ['prod']), hook(3, ['restart']), hook(4, ['alert_mem'])]);
    expect(await svc.notify(cpu(10, ['prod']))).toBe(2);
    expect(await svc.notify(cpu(11, ['dev']))).toBe(1);
    expect(await svc.notify({ kind: 'restart', systemName: 'fleet', version: '1' })).toBe(2);
    await svc.delivery.runOnce();
    expect(received(1).map((m) => m.title)).toEqual(['🔴 CPU alert on srv-10', '🔴 CPU alert on srv-11']);
    expect(received(2).map((m) => m.kind)).toEqual(['alert_cpu', 'restart']);
    expect(received(3).map((m) => m.kind)).toEqual(['restart']);
    expect(received(4)).toEqual([]);

    await t.app.services.settings.set('notify_alert_cpu', 'false');
    expect(await svc.notify(cpu(12, ['prod']))).toBe(0);
    await t.app.services.settings.set('notify_alert_cpu', 'true');
  });

  it('a failed delivery is tried 3 times, 5 s then 30 s apart; a non-retryable failure fails at once', async () => {
    status.set('/hook/1', 503);
    status.set('/hook/2', 400);
    const svc = service([hook(1, ['alert_cpu']), hook(2, ['alert_cpu'])]);
    await svc.notify(cpu(20));
    const start = clock;
    await svc.delivery.runOnce();
    expect([received(1).length, received(2).length]).toEqual([1, 1]);
    expect((await rows()).find((r) => r.destination === 'channel:2')).toMatchObject({ state: 'failed', attempts: 1, last_error: 'HTTP 400' });
    clock = start + 4_999;
    expect(await svc.delivery.runOnce()).toBe(0);
    clock = start + 5_000;
    await svc.delivery.runOnce();
    expect(received(1)).toHaveLength(2);
    clock = start + 34_999;
    expect(await svc.delivery.runOnce()).toBe(0);
    clock = start + 35_000;
    await svc.delivery.runOnce();
    expect(received(1)).toHaveLength(3);
    clock = start + 3600_000;
    expect(await svc.delivery.runOnce()).toBe(0);
    expect((await rows()).find((r) => r.destination === 'channel:1')).toMatchObject({ state: 'failed', attempts: 3, last_error: 'HTTP 503' });
    expect(received(2)).toHaveLength(1);
  });

  it('identical alerts (same kind, server, channel) inside the window collapse into one', async () => {
    const svc = service([hook(1, ['alert_cpu', 'alert_mem'])]);
    expect(await svc.notify(cpu(30))).toBe(1);
    clock += 9 * 60_000;
    expect(await svc.notify(cpu(30))).toBe(0);
    expect(await svc.notify(cpu(31))).toBe(1);
    expect(await svc.notify({ kind: 'alert_mem', server: { id: 30, name: 'srv-30', tags: [] }, value: 95, threshold: 90 })).toBe(1);
    clock += 2 * 60_000;
    expect(await svc.notify(cpu(30))).toBe(1);
    await svc.delivery.runOnce();
    expect(received(1)).toHaveLength(4);
  });

  it('notices of one alert raised at the same moment queue one row: the second reads after the first has written', async () => {
    const svc = service([hook(1, ['alert_cpu'])]);
    const queued = await Promise.all([svc.notify(cpu(40)), svc.notify(cpu(40)), svc.notify(cpu(41)), svc.notify(cpu(40))]);
    expect([...queued].sort()).toEqual([0, 0, 1, 1]);
    expect((await rows()).map((r) => r.dedup_key).sort()).toEqual(['alert_cpu:40:channel:1', 'alert_cpu:41:channel:1']);
  });

  it('the rate limit per channel defers the excess, never drops it', async () => {
    const svc = service([hook(1, ['alert_cpu']), hook(2, ['alert_cpu'])], t, { ratePerMinute: 3 });
    for (let i = 0; i < 5; i++) await svc.notify(cpu(40 + i));
    await svc.delivery.runOnce();
    expect([received(1).length, received(2).length]).toEqual([3, 3]);
    clock += 20_000; // one token every 20 s
    await svc.delivery.runOnce();
    expect([received(1).length, received(2).length]).toEqual([4, 4]);
    clock += 20_000;
    await svc.delivery.runOnce();
    expect([received(1).length, received(2).length]).toEqual([5, 5]);
    expect((await rows()).every((r) => r.state === 'delivered' && r.attempts === 1)).toBe(true);
  });

  it('a channel that keeps failing raises one notice to the other infrastructure channels, and one when it recovers', async () => {
    status.set('/hook/1', 500);
    const svc = service([hook(1, ['alert_cpu']), hook(2, ['infrastructure']), hook(3, ['infrastructure', 'alert_cpu'])], t, { backoffMs: [1, 1] });
    for (let i = 0; i < 4; i++) await svc.notify(cpu(50 + i));
    for (let round = 0; round < 6; round++) {
      clock += 1_000;
      await svc.delivery.runOnce();
    }
    const failing = (id: number) => received(id).filter((m) => m.title.includes('channel failing'));
    expect(received(1).length).toBeGreaterThanOrEqual(6);
    expect(failing(2)).toHaveLength(1);
    expect(failing(3)).toHaveLength(1);
    expect(failing(1)).toHaveLength(0);
    status.set('/hook/1', 200);
    await svc.notify(cpu(60));
    for (let round = 0; round < 3; round++) {
      clock += 1_000;
      await svc.delivery.runOnce();
    }
    expect(received(2).filter((m) => m.title.includes('channel recovered'))).toHaveLength(1);
  });

  it('a slow channel does not hold up another channel’s messages', async () => {
    delays.set('/hook/21', 2_000);
    const svc = service([hook(21, ['restart']), hook(22, ['alert_cpu'])]);
    expect(await svc.notify({ kind: 'restart', systemName: 'fleet', version: '1' })).toBe(1);
    svc.delivery.kick();
    await expect.poll(() => fake.requests.some((r) => r.url === '/hook/21')).toBe(true);
    const started = Date.now();
    expect(await svc.notify(cpu(30))).toBe(1);
    svc.delivery.kick();
    await expect.poll(() => received(22).length, { timeout: 5_000, interval: 20 }).toBe(1);
    // Channel 21 is still waiting for its answer (2 s) when channel 22 has its message.
    expect(Date.now() - started).toBeLessThan(1_500);
    await svc.delivery.idle();
    expect((await rows()).map((r) => r.state)).toEqual(['delivered', 'delivered']);
  });

  it('two delivery loops (two app instances on one database) deliver each row once', async () => {
    const channels = [hook(1, ['alert_cpu']), hook(2, ['alert_cpu'])];
    const a = service(channels, t, { batchSize: 5, ratePerMinute: 1000 });
    const b = service(channels, t2, { batchSize: 5, ratePerMinute: 1000 });
    for (let i = 0; i < 30; i++) await (i % 2 ? a : b).notify(cpu(100 + i));
    const drain = async (s: NotificationService) => {
      while ((await s.delivery.runOnce()) > 0);
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    const titles = received(1).map((m) => m.title);
    expect(titles).toHaveLength(30);
    expect(new Set(titles).size).toBe(30);
    expect(received(2)).toHaveLength(30);
  });

  it('a row claimed by an owner that crashed is delivered once its lease has expired', async () => {
    const svc = service([hook(1, ['alert_cpu'])]);
    await svc.notify(cpu(200));
    const repo = new OutboxRepository(t.app.services.db);
    const taken = await repo.claimDue('crashed', new Date(clock).toISOString(), new Date(clock + 60_000).toISOString(), 10);
    expect(taken).toHaveLength(1);
    expect(await svc.delivery.runOnce()).toBe(0);
    clock += 60_001;
    expect(await svc.delivery.runOnce()).toBe(1);
    expect(received(1)).toHaveLength(1);
    expect(await repo.depth()).toBe(0);
  });

  it('a destination sending several rows in a row renews their lease, so another owner never takes one it still holds', async () => {
    const repo = new OutboxRepository(t.app.services.db);
    const taken: number[] = [];
    const svc = new NotificationService({
      settings: t.app.services.settings,
      secrets: new SecretSettings(t.app.services.settings, t.app.services.cipher),
      apiBase: fake.url,
      log: silent,
      outbox: repo,
      owner: 'slow-owner',
      channels: memorySource([hook(1, ['alert_cpu'])]),
      // Each send takes 30 s on the injected clock; meanwhile another process looks for due rows.
      createChannelNotifier: (c) => {
        const inner = postingNotifier(c);
        return {
          channel: inner.channel,
          async send(m) {
            clock += 30_000;
            const now = new Date(clock).toISOString();
            taken.push(...(await repo.claimDue('other-owner', now, new Date(clock + 60_000).toISOString(), 10)).map((r) => r.id));
            await inner.send(m);
          },
        };
      },
      now: () => clock,
      delivery: { leaseMs: 60_000, sendBoundMs: 15_000, ratePerMinute: 1000 },
    });
    for (let i = 0; i < 4; i++) await svc.notify(cpu(400 + i));
    expect(await svc.delivery.runOnce()).toBe(4);
    expect(taken).toEqual([]);
    expect(received(1)).toHaveLength(4);
    expect((await rows()).map((r) => r.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  it('renders in Chinese when notify_language is zh-CN', async () => {
    await t.app.services.settings.set('notify_language', 'zh-CN');
    try {
      const svc = service([hook(1, ['alert_cpu', 'offline'])]);
      await svc.notify(cpu(300));
      await svc.notify({ kind: 'offline', server: { id: 300, name: 'srv-300', tags: [] }, timeoutS: 90 });
      await svc.delivery.runOnce();
      expect(received(1).map((m) => m.title)).toEqual(['🔴 CPU告警：srv-300', '🔴 服务器离线']);
    } finally {
      await t.app.services.settings.set('notify_language', 'en');
    }
  });
});
