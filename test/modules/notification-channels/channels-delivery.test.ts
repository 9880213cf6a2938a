/**
 * The channels wired as the service runs them: no injected sender or notifier. A channel saved
 * through the API is tested through the real channel adapter, and an alert raised by a real
 * heartbeat travels through the outbox to the channels subscribed to it (by event and by tag),
 * each received by a loopback fake that checks the request as the provider documents it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { startFakeDingtalk, startFakeSlack, type FakeProvider } from '../../helpers/fake-providers/index.js';
import { dbKinds } from '../../helpers/targets.js';
import { createServer, eventually, heartbeat, putSetting, rotateToken } from '../agent/agent-helpers.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';

describe.each(dbKinds())('notification channels delivered for real on %s', (db) => {
  let t: TestApp;
  let ding: FakeProvider;
  let slack: FakeProvider;

  beforeAll(async () => {
    ding = await startFakeDingtalk({ secret: 'SEC-delivery-test-secret' });
    slack = await startFakeSlack();
    t = await makeTestApp({ db, env: offlineEnv() });
    // The fakes are on loopback: a private target the operator has to allow.
    await putSetting(t, 'notify_allow_private_targets', 'true');
  });
  afterAll(async () => {
    await t?.close();
    await ding?.close();
    await slack?.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/notification-channels', headers: await t.auth(), payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const test = async (id: number) => t.app.inject({ method: 'POST', url: `/api/notification-channels/${id}/test`, headers: await t.auth() });

  it('sends the test message through the channel type, and answers 502 with the provider’s own error text', async () => {
    const id = await create({ type: 'dingtalk', name: 'ops robot', config: ding.config, events: ['alert_cpu'] });
    const ok = await test(id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ding.problems).toEqual([]);
    expect(JSON.stringify(ding.last()?.json)).toContain('ops robot');

    ding.failNext(1, 'refuse');
    const refused = await test(id);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('channel_delivery_failed');
    expect(refused.json().detail.length).toBeGreaterThan(0);
    expect(refused.body).not.toContain('SEC-delivery-test-secret');
  });

  it('refuses a loopback target once private targets are switched off again', async () => {
    const id = await create({ type: 'slack', name: 'loopback slack', config: slack.config, events: ['alert_cpu'] });
    await putSetting(t, 'notify_allow_private_targets', 'false');
    try {
      const res = await test(id);
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toMatch(/private|loopback|refused/i);
      expect(slack.received).toHaveLength(0);
    } finally {
      await putSetting(t, 'notify_allow_private_targets', 'true');
      await t.app.inject({ method: 'DELETE', url: `/api/notification-channels/${id}`, headers: await t.auth() });
    }
  });

  it('delivers an alert from a real heartbeat to the channels subscribed to its event and tag, and no other', async () => {
    ding.reset();
    slack.reset();
    const web = await createServer(t, 'web-7', { tags: ['web'] });
    const token = await rotateToken(t, web);
    await create({ type: 'slack', name: 'web team', config: slack.config, events: ['alert_cpu'], tags: ['web'] });
    await create({ type: 'slack', name: 'db team', config: slack.config, events: ['alert_cpu'], tags: ['db'] });
    await create({ type: 'slack', name: 'disk only', config: slack.config, events: ['alert_disk'] });
    await putSetting(t, 'cpu_alert_threshold', '90');

    expect((await heartbeat(t, token, { cpu: 99 })).statusCode).toBe(200);
    await eventually(async () => slack.received.length >= 1 && ding.received.length >= 1);
    // Let any stray delivery arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    expect(slack.problems).toEqual([]);
    expect(slack.received).toHaveLength(1);
    expect(JSON.stringify(slack.last()?.json)).toContain('web-7');
    // The DingTalk channel subscribes to alert_cpu for every server.
    expect(ding.received).toHaveLength(1);
    expect(ding.problems).toEqual([]);
  });
});
