/**
 * Every HTTP channel type against its loopback fake: the request is exactly as the provider
 * documents it (the fake checks and records problems), the provider's refusal becomes a
 * non-retryable NotifierError with the provider's text, rate limits and gateway failures are
 * retryable, a hung provider times out, and no error text carries a secret of the channel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_FIELDS } from '../../../src/adapters/notifiers/channel-configs.js';
import { createNotifier } from '../../../src/adapters/notifiers/channel-types.js';
import type { ChannelType } from '../../../src/platform/notifications/channel-contract.js';
import * as fakes from '../../helpers/fake-providers/index.js';
import type { FakeProvider } from '../../helpers/fake-providers/index.js';
import { deps, message, notifierError } from './helpers.js';

type Start = () => Promise<FakeProvider<unknown>>;
const CASES: { type: Exclude<ChannelType, 'email'>; start: Start; refusal: string }[] = [
  { type: 'dingtalk', start: () => fakes.startFakeDingtalk({ secret: 'SECa1b2c3d4e5f6' }), refusal: 'sign not match' },
  { type: 'wecom', start: () => fakes.startFakeWecom(), refusal: 'invalid webhook url' },
  { type: 'feishu', start: () => fakes.startFakeFeishu({ secret: 'feishu-sign-secret' }), refusal: 'sign match fail' },
  { type: 'webhook', start: () => fakes.startFakeWebhook({ secret: 'hook-secret-1' }), refusal: 'bad request' },
  { type: 'messenger', start: () => fakes.startFakeMessenger(), refusal: 'chat not found' },
  { type: 'serverchan', start: () => fakes.startFakeServerchan(), refusal: 'bad pushtoken' },
  { type: 'pushplus', start: () => fakes.startFakePushplus(), refusal: '无效的用户token' },
  { type: 'bark', start: () => fakes.startFakeBark(), refusal: 'failed to get device token' },
  { type: 'ntfy', start: () => fakes.startFakeNtfy({ accessToken: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' }), refusal: 'forbidden' },
  { type: 'gotify', start: () => fakes.startFakeGotify(), refusal: 'Unauthorized' },
  { type: 'slack', start: () => fakes.startFakeSlack(), refusal: 'invalid_payload' },
  { type: 'discord', start: () => fakes.startFakeDiscord(), refusal: 'Invalid Webhook Token' },
];

let open: FakeProvider<unknown>[] = [];
afterEach(async () => {
  await Promise.all(open.map((f) => f.close()));
  open = [];
});

async function setUp(c: (typeof CASES)[number], o: { timeoutMs?: number; allowPrivate?: boolean } = {}) {
  const fake = await c.start();
  open.push(fake);
  const config = fake.config as Record<string, unknown>;
  const notifier = createNotifier({ id: 7, type: c.type, config }, deps(o));
  // Every secret, and for a webhook URL its key part, must stay out of error texts.
  const secrets = SECRET_FIELDS[c.type].map((f) => String(config[f] ?? '')).filter(Boolean);
  const keyParts = secrets.flatMap((s) => (/^https?:/.test(s) ? [new URL(s).pathname.split('/').pop() ?? '', ...new URL(s).searchParams.values()] : [s]));
  const noSecret = (text: string) => {
    for (const s of [...secrets, ...keyParts].filter((k) => k.length >= 6)) expect(text).not.toContain(s);
  };
  return { fake, notifier, noSecret };
}

describe.each(CASES)('$type channel', (c) => {
  it('delivers the request exactly as the provider documents it', async () => {
    const { fake, notifier } = await setUp(c);
    expect(notifier.channel).toBe(`${c.type}:7`);
    await notifier.send(message());
    expect(fake.problems).toEqual([]);
    expect(fake.received).toHaveLength(1);
  });

  it("turns the provider's refusal into a non-retryable error with its text and no secret", async () => {
    const { fake, notifier, noSecret } = await setUp(c);
    fake.failNext(1, 'refuse');
    const err = await notifierError(notifier.send(message()));
    expect(err.channel).toBe(`${c.type}:7`);
    expect(err.description).toContain(c.refusal);
    expect(err.retryable).toBe(false);
    noSecret(err.message);
  });

  it('marks rate limits and gateway failures retryable', async () => {
    const { fake, notifier, noSecret } = await setUp(c);
    fake.failNext(1, 'rate');
    fake.failNext(1, 'server');
    const rate = await notifierError(notifier.send(message()));
    const server = await notifierError(notifier.send(message()));
    // PushPlus and ServerChan report limits in their body with codes that do not say "later" reliably.
    if (c.type !== 'serverchan') expect(rate.retryable).toBe(true);
    expect(server.retryable).toBe(true);
    expect(server.description).toContain('502');
    noSecret(rate.message);
    noSecret(server.message);
  });

  it('times out, retryable, on a provider that never answers', async () => {
    const { fake, notifier, noSecret } = await setUp(c, { timeoutMs: 300 });
    fake.failNext(1, 'hang');
    const err = await notifierError(notifier.send(message()));
    expect(err.description).toContain('timed out');
    expect(err.retryable).toBe(true);
    noSecret(err.message);
  });

  it('is refused before connecting when private targets are not allowed', async () => {
    const { fake, notifier, noSecret } = await setUp(c, { allowPrivate: false });
    const err = await notifierError(notifier.send(message()));
    expect(err.retryable).toBe(false);
    expect(err.description).toContain('non-public');
    expect(fake.received).toHaveLength(0);
    noSecret(err.message);
  });

  it('stays within the provider limits for a huge message', async () => {
    const { fake, notifier } = await setUp(c);
    const huge = '告警 alert 🚨 '.repeat(5000);
    await notifier.send(message({ title: huge.slice(0, 300), text: huge, markdown: huge, html: huge }));
    expect(fake.problems).toEqual([]);
  });
});
