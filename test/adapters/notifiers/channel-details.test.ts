/**
 * The details of single channel types beyond the common checks: signatures (a wrong secret is
 * caught by the fake's independent check), mentions, the webhook's templates, headers and
 * signature, ntfy's header encoding, ServerChan's two key kinds, Slack mrkdwn, Discord's limit,
 * secrets a provider echoes, and a stored configuration that no longer matches its schema.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotifier } from '../../../src/adapters/notifiers/channel-types.js';
import { serverchanUrl } from '../../../src/adapters/notifiers/serverchan.js';
import { toMrkdwn } from '../../../src/adapters/notifiers/slack.js';
import type { ChannelType } from '../../../src/platform/notifications/channel-contract.js';
import * as fakes from '../../helpers/fake-providers/index.js';
import { FakeProvider } from '../../helpers/fake-providers/index.js';
import { deps, message, notifierError } from './helpers.js';

let open: FakeProvider<unknown>[] = [];
afterEach(async () => {
  await Promise.all(open.map((f) => f.close()));
  open = [];
});
function track<T extends FakeProvider<unknown>>(f: T): T {
  open.push(f);
  return f;
}
const make = (type: ChannelType, config: unknown) => createNotifier({ id: 1, type, config: config as Record<string, unknown> }, deps());

describe('signed robots', () => {
  it('DingTalk: a wrong secret gives a sign the robot refuses; mentions are in the text and in at', async () => {
    const fake = track(await fakes.startFakeDingtalk({ secret: 'SECright' }));
    const err = await notifierError(make('dingtalk', { ...fake.config, secret: 'SECwrong' }).send(message()));
    expect(err.description).toContain('sign does not match');
    expect(err.retryable).toBe(false);
    await make('dingtalk', { ...fake.config, at_mobiles: ['13800000000'] }).send(message());
    const body = fake.last().json as { markdown: { text: string }; at: { atMobiles: string[] } };
    expect(body.at.atMobiles).toEqual(['13800000000']);
    expect(body.markdown.text).toContain('@13800000000');
  });

  it('Feishu: a wrong secret is refused; the body carries the title and one paragraph per line', async () => {
    const fake = track(await fakes.startFakeFeishu({ secret: 'right' }));
    const err = await notifierError(make('feishu', { ...fake.config, secret: 'wrong' }).send(message()));
    expect(err.description).toContain('sign does not match');
    await make('feishu', fake.config).send(message());
    const post = (fake.last().json as { content: { post: { zh_cn: { title: string; content: unknown[] } } } }).content.post.zh_cn;
    expect(post.title).toBe('CPU alert on web-1: 97%');
    expect(post.content).toHaveLength(2);
  });

  it('WeCom: mentions by mobile switch to a text message', async () => {
    const fake = track(await fakes.startFakeWecom());
    await make('wecom', { ...fake.config, mentioned_mobile_list: ['13800000000'] }).send(message());
    expect(fake.problems).toEqual([]);
    expect(fake.last().json).toMatchObject({ msgtype: 'text', text: { mentioned_mobile_list: ['13800000000'] } });
  });
});

describe('webhook', () => {
  it('fills a JSON template with escaped values and signs the exact body', async () => {
    const fake = track(await fakes.startFakeWebhook({ secret: 's3cret' }));
    const template = '{"msg": "{{title}}", "body": "{{ text }}", "level": "{{severity}}"}';
    await make('webhook', { ...fake.config, body_template: template, headers: { 'X-Team': 'ops' } }).send(message({ title: 'say "hi"\nnow' }));
    expect(fake.problems).toEqual([]);
    const req = fake.last();
    expect(req.json).toEqual({ msg: 'say "hi"\nnow', body: message().text, level: 'warning' });
    expect(req.headers['x-team']).toBe('ops');
    expect(req.headers['x-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(req.body).digest('hex')}`);
  });

  it('sends a form body, a default JSON body, and GET with query parameters', async () => {
    const fake = track(await fakes.startFakeWebhook());
    await make('webhook', { ...fake.config, body_format: 'form', body_template: 't={{title}}&k={{kind}}' }).send(message({ title: 'a&b=c' }));
    expect(fake.last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(fake.last().body))).toEqual({ t: 'a&b=c', k: 'alert_cpu' });
    await make('webhook', fake.config).send(message());
    expect(fake.last().json).toEqual({ title: message().title, text: message().text, markdown: message().markdown, kind: 'alert_cpu', severity: 'warning' });
    await make('webhook', { ...fake.config, method: 'GET' }).send(message());
    expect(fake.last().method).toBe('GET');
    expect(fake.last().query).toMatchObject({ title: message().title, kind: 'alert_cpu', severity: 'warning' });
  });

  it('refuses hop-by-hop, Host and Content-Length headers and a template that is not JSON, without retrying', async () => {
    const fake = track(await fakes.startFakeWebhook());
    for (const h of ['Host', 'content-length', 'Connection', 'Transfer-Encoding']) {
      const err = await notifierError(make('webhook', { ...fake.config, headers: { [h]: 'x' } }).send(message()));
      expect(err.retryable).toBe(false);
      expect(err.description).toContain(h);
    }
    const err = await notifierError(make('webhook', { ...fake.config, body_template: '{"a": {{title}}}' }).send(message()));
    expect(err.description).toContain('valid JSON');
    expect(fake.received).toHaveLength(0);
  });
});

describe('ntfy', () => {
  it('encodes a non-ASCII title (RFC 2047), maps severity to priority and authenticates with user and password', async () => {
    const fake = track(await fakes.startFakeNtfy({ user: 'fleet', password: 'pw-123456' }));
    await make('ntfy', fake.config).send(message({ title: 'CPU 告警 web-1', severity: 'critical' }));
    expect(fake.problems).toEqual([]);
    const h = fake.last().headers;
    const encoded = /^=\?UTF-8\?B\?(.+)\?=$/.exec(h.title ?? '');
    expect(Buffer.from(encoded?.[1] ?? '', 'base64').toString('utf8')).toBe('CPU 告警 web-1');
    expect(h.priority).toBe('5');
    expect(h.tags).toBe('alert_cpu,rotating_light');
    expect(fake.last().body).toBe(message().markdown);
  });
});

describe('ServerChan', () => {
  it('picks the Server酱³ host for sctp keys and Turbo otherwise', () => {
    expect(serverchanUrl('sctp1234tAbCdEf')).toBe('https://1234.push.ft07.com/send/sctp1234tAbCdEf.send');
    expect(serverchanUrl('SCT99TxYz')).toBe('https://sctapi.ftqq.com/SCT99TxYz.send');
    expect(serverchanUrl('SCT99TxYz', 'http://127.0.0.1:9/')).toBe('http://127.0.0.1:9/SCT99TxYz.send');
  });

  it('delivers with a Server酱³ key', async () => {
    const fake = track(await fakes.startFakeServerchan({ sendKey: 'sctp42tQwErTy0123456789' }));
    await make('serverchan', fake.config).send(message());
    expect(fake.problems).toEqual([]);
    expect(fake.last().json).toEqual({ title: message().title, desp: message().markdown });
  });
});

describe('Slack and Discord', () => {
  it('Slack: bold and links become mrkdwn, markup characters are escaped', () => {
    expect(toMrkdwn('**CPU** <high> & [graph](https://g.example/x)')).toBe('*CPU* &lt;high&gt; &amp; <https://g.example/x|graph>');
  });

  it('Discord: content within 2000 characters, no mentions parsed', async () => {
    const fake = track(await fakes.startFakeDiscord());
    await make('discord', { ...fake.config, username: 'Fleet' }).send(message({ markdown: '@everyone '.repeat(500) }));
    expect(fake.problems).toEqual([]);
    const body = fake.last().json as { content: string; allowed_mentions: unknown; username: string };
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.username).toBe('Fleet');
  });
});

describe('secrets and configuration', () => {
  it('scrubs a key the provider echoes in its error text', async () => {
    const token = 'echoed-access-token-42';
    const fake = track(
      await new FakeProvider({
        check: () => [],
        ok: () => ({ status: 200, body: { errcode: 0, errmsg: 'ok' } }),
        failure: () => ({ status: 200, body: { errcode: 300001, errmsg: `token ${token} is not exist` } }),
      }).start(),
    );
    fake.failNext(1, 'refuse');
    const err = await notifierError(make('dingtalk', { webhook_url: `${fake.url}/robot/send?access_token=${token}` }).send(message()));
    expect(err.description).toContain('is not exist');
    expect(err.description).not.toContain(token);
  });

  it('a stored configuration that does not match its schema fails every send, not retryable', async () => {
    for (const [type, config] of [
      ['slack', { webhook_url: 'ftp://x.example/hook' }],
      ['gotify', { server_url: 'https://g.example' }],
      ['bark', { device_key: 'k', extra: 1 }],
    ] as const) {
      const err = await notifierError(make(type, config).send(message()));
      expect(err.retryable).toBe(false);
      expect(err.description).toContain('invalid');
    }
  });
});
