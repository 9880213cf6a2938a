/**
 * The alert engine end to end: heartbeats in, alert history, server status, socket messages and
 * bot notifications out. The app's clock is injected so offline and drift are deterministic.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { connectWs, type WsClient } from '../../helpers/ws.js';
import { backends, eventually, getServer, heartbeat, history, monitoredServer, putSetting } from '../agent/agent-helpers.js';
import { offlineEnv, sendJson, startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const BOT_TOKEN = '123:alerts-bot';
const OFFLINE_BOT_TOKEN = '456:offline-bot';

describe.each(backends())('alerts on %s + %s cache', (db, cache) => {
  let t: TestApp;
  let bot: FakeServer;
  let botMode: 'ok' | 'fail' | 'slow' = 'ok';
  let clock = Date.parse('2026-11-20T04:00:00.000Z');
  let ws: WsClient;

  beforeAll(async () => {
    bot = await startFakeServer(async (_req, res) => {
      if (botMode === 'fail') return sendJson(res, 500, { ok: false, description: 'Internal Server Error' });
      if (botMode === 'slow') await new Promise((r) => setTimeout(r, 3_000));
      sendJson(res, 200, { ok: true, result: { message_id: 1 } });
    });
    t = await makeTestApp({ db, cache, env: offlineEnv({ MESSENGER_API_BASE: bot.url }), now: () => clock });
    await putSetting(t, 'messenger_bot_token', BOT_TOKEN);
    await putSetting(t, 'messenger_chat_id', '-100');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    ws = connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=${await t.token()}`);
    await ws.opened;
  });
  afterAll(async () => {
    ws?.close();
    await t?.close();
    await bot?.close();
  });
  beforeEach(() => {
    botMode = 'ok';
    bot.requests.length = 0;
  });

  const messages = (token = BOT_TOKEN) =>
    bot.requests.filter((r) => r.url === `/bot${token}/sendMessage`).map((r) => JSON.parse(r.body) as { text: string; parse_mode: string });
  const rows = async (id: number) =>
    (await history(t, `server_id=${id}&limit=200`)).items
      .reverse()
      .map((i) => [i.alert_type, i.is_recovery ? 'recovery' : 'alert', i.value] as const);

  it('a reading at or above its threshold opens one alert; a reading below recovers it with its value', async () => {
    await putSetting(t, 'cpu_alert_threshold', '80');
    const { id, token } = await monitoredServer(t, 'web-1');
    for (const r of [{ cpu: 80 }, { cpu: 95 }, { cpu: 99.5 }, { cpu: 79.5 }, { cpu: 50 }, { cpu: 85 }]) {
      expect((await heartbeat(t, token, r)).statusCode).toBe(200);
    }
    expect((await heartbeat(t, token, { mem: 90, disk: 89.9 })).statusCode).toBe(200);
    expect(await rows(id)).toEqual([
      ['cpu', 'alert', 80],
      ['cpu', 'recovery', 79.5],
      ['cpu', 'alert', 85],
      ['cpu', 'recovery', 10],
      ['mem', 'alert', 90],
    ]);
    const item = (await history(t, `server_id=${id}&limit=1`)).items[0];
    expect(item).toEqual({
      id: expect.any(Number),
      server_id: id,
      server_name: 'web-1',
      alert_type: 'mem',
      value: 90,
      is_recovery: false,
      created_at: new Date(clock).toISOString(),
    });
    await putSetting(t, 'cpu_alert_threshold', '90');
  });

  it('thresholds follow the live settings', async () => {
    const { id, token } = await monitoredServer(t, 'db-1');
    await heartbeat(t, token, { disk: 60 });
    expect(await rows(id)).toEqual([]);
    await putSetting(t, 'disk_alert_threshold', '50');
    await heartbeat(t, token, { disk: 60 });
    expect(await rows(id)).toEqual([['disk', 'alert', 60]]);
    await putSetting(t, 'disk_alert_threshold', '90');
    await heartbeat(t, token, { disk: 60 });
    expect(await rows(id)).toEqual([['disk', 'alert', 60], ['disk', 'recovery', 60]]);
  });

  it('time drift: |ts - now| > 60 s opens time_drift once; back under 60 s recovers it', async () => {
    const { id, token } = await monitoredServer(t, 'drifty');
    await heartbeat(t, token, {}, clock - 60_000);
    await heartbeat(t, token, {}, clock + 60_000);
    expect(await rows(id)).toEqual([]);
    await heartbeat(t, token, {}, clock - 61_000);
    await heartbeat(t, token, {}, clock + 3_600_000);
    await heartbeat(t, token, {}, clock - 30_000);
    expect(await rows(id)).toEqual([
      ['time_drift', 'alert', 61],
      ['time_drift', 'recovery', 30],
    ]);
  });

  it('offline after heartbeat_timeout, never for a server that never reported; the next heartbeat recovers', async () => {
    await putSetting(t, 'heartbeat_timeout', '30');
    const quiet = await monitoredServer(t, 'quiet');
    const silentFromBirth = await monitoredServer(t, 'never-reported');
    await heartbeat(t, quiet.token);
    const detector = t.app.services.alerts.offline;
    clock += 29_000;
    expect(await detector.checkOffline(clock)).toEqual([]);
    clock += 2_000;
    // Servers of earlier tests went quiet too; each is reported once.
    const first = await detector.checkOffline(clock);
    expect(first).toContain(quiet.id);
    expect(first).not.toContain(silentFromBirth.id);
    expect(await detector.checkOffline(clock + 10_000)).toEqual([]);
    expect(await getServer(t, quiet.id)).toMatchObject({ status: 'offline' });
    expect(await getServer(t, silentFromBirth.id)).toMatchObject({ status: 'unknown', last_heartbeat_at: null });
    expect(await rows(silentFromBirth.id)).toEqual([]);
    expect(await rows(quiet.id)).toEqual([['offline', 'alert', null]]);

    clock += 5_000;
    expect((await heartbeat(t, quiet.token)).statusCode).toBe(200);
    expect(await getServer(t, quiet.id)).toMatchObject({ status: 'online', last_heartbeat_at: new Date(clock).toISOString() });
    expect(await rows(quiet.id)).toEqual([['offline', 'alert', null], ['offline', 'recovery', null]]);
    await putSetting(t, 'heartbeat_timeout', '90');
  });

  it('each alert and recovery goes to /ws/alerts', async () => {
    const { id, token } = await monitoredServer(t, 'socket-host');
    await heartbeat(t, token, { mem: 97 });
    await heartbeat(t, token, { mem: 12.5 });
    const alert = await ws.next((m) => m.type === 'alert' && m.server_id === id);
    expect(alert).toEqual({
      type: 'alert',
      id: expect.any(Number),
      server_id: id,
      server_name: 'socket-host',
      alert_type: 'mem',
      value: 97,
      created_at: new Date(clock).toISOString(),
    });
    const recovery = await ws.next((m) => m.type === 'recovery' && m.server_id === id);
    expect(recovery).toMatchObject({ type: 'recovery', alert_type: 'mem', value: 12.5, server_name: 'socket-host' });
  });

  it('notifies the bot in HTML with the server name escaped, each kind behind its notify_* switch', async () => {
    const { token } = await monitoredServer(t, '<b>evil</b> & co');
    await heartbeat(t, token, { cpu: 99 });
    const sent = await eventually(async () => messages().find((m) => m.text.includes('CPU alert')));
    expect(sent.parse_mode).toBe('HTML');
    expect(sent.text).toContain('&lt;b&gt;evil&lt;/b&gt; &amp; co');
    expect(sent.text).not.toContain('<b>evil</b>');
    await heartbeat(t, token, { cpu: 5 });
    await eventually(async () => messages().find((m) => m.text.includes('CPU recovered')));

    await putSetting(t, 'notify_alert_disk', 'false');
    const muted = await monitoredServer(t, 'muted-disk');
    await heartbeat(t, muted.token, { disk: 99, mem: 99 });
    await eventually(async () => messages().find((m) => m.text.includes('Memory alert') && m.text.includes('muted-disk')));
    expect(messages().some((m) => m.text.includes('Disk alert'))).toBe(false);
    expect((await rows(muted.id)).map((r) => r[0]).sort()).toEqual(['disk', 'mem']);
    await putSetting(t, 'notify_alert_disk', 'true');
  });

  it('offline alerts use the offline bot when it is configured', async () => {
    await putSetting(t, 'messenger_offline_bot_token', OFFLINE_BOT_TOKEN);
    await putSetting(t, 'messenger_offline_chat_id', '-200');
    const { id, token } = await monitoredServer(t, 'goes-dark');
    await heartbeat(t, token);
    clock += 120_000;
    expect(await t.app.services.alerts.offline.checkOffline(clock)).toContain(id);
    const sent = await eventually(async () => messages(OFFLINE_BOT_TOKEN).find((m) => m.text.includes('goes-dark')));
    expect(sent.text).toContain('Server offline');
    expect(messages(BOT_TOKEN).some((m) => m.text.includes('Server offline') && m.text.includes('goes-dark'))).toBe(false);
    await heartbeat(t, token);
    // Back online goes where the offline alert went.
    await eventually(async () => messages(OFFLINE_BOT_TOKEN).find((m) => m.text.includes('back online') && m.text.includes('goes-dark')));
    expect(messages(BOT_TOKEN).some((m) => m.text.includes('back online') && m.text.includes('goes-dark'))).toBe(false);
  });

  it('a failing or slow bot never blocks or undoes an alert', async () => {
    const { id, token } = await monitoredServer(t, 'bot-down');
    botMode = 'fail';
    expect((await heartbeat(t, token, { cpu: 99 })).statusCode).toBe(200);
    botMode = 'slow';
    const started = Date.now();
    expect((await heartbeat(t, token, { cpu: 99, mem: 99 })).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await rows(id)).map((r) => r[0]).sort()).toEqual(['cpu', 'mem']);
  });
});
