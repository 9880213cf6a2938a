/**
 * Fakes of Bark, ntfy, Gotify, Slack and Discord webhooks, the Telegram-compatible bot API and a
 * generic webhook receiver; each checks the request as its provider documents it and answers
 * in its format.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelConfig } from '../../../src/adapters/notifiers/channel-configs.js';
import { FakeProvider, field, jsonPostProblems, stringFields } from './fake-provider.js';

/** Bark: POST /push JSON {title, body, device_key, group?, level?}. */
export async function startFakeBark(o: { deviceKey?: string } = {}): Promise<FakeProvider<ChannelConfig<'bark'>>> {
  const key = o.deviceKey ?? 'NxsYHkTqbZq6FhUfTrPqUE';
  const fake = new FakeProvider<ChannelConfig<'bark'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== '/push') out.push(`path ${req.path}`);
      if (field(req, 'device_key') !== key) out.push('device_key wrong');
      out.push(...stringFields(req, ['title', 'body']));
      const level = field(req, 'level');
      if (level !== undefined && !['active', 'timeSensitive', 'passive', 'critical'].includes(String(level))) out.push(`level ${String(level)}`);
      return out;
    },
    ok: () => ({ status: 200, body: { code: 200, message: 'success', timestamp: Math.floor(Date.now() / 1000) } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 429, body: { code: 429, message: 'request too frequently', timestamp: 0 } }
        : { status: 400, body: { code: 400, message: detail || `failed to get device token: failed to get [${key}] device token from database`, timestamp: 0 } },
  });
  await fake.start();
  fake.config = { server_url: fake.url, device_key: key };
  return fake;
}

/** ntfy: POST /<topic>, text body, headers Title/Priority/Tags/Markdown, optional Bearer or Basic auth. */
export async function startFakeNtfy(o: { topic?: string; accessToken?: string; user?: string; password?: string } = {}): Promise<FakeProvider<ChannelConfig<'ntfy'>>> {
  const topic = o.topic ?? 'fleet-alerts';
  const auth = o.accessToken ? `Bearer ${o.accessToken}` : o.user ? `Basic ${Buffer.from(`${o.user}:${o.password}`).toString('base64')}` : undefined;
  const fake = new FakeProvider<ChannelConfig<'ntfy'>>({
    check(req) {
      const out: string[] = [];
      if (req.method !== 'POST' && req.method !== 'PUT') out.push(`method ${req.method}`);
      if (req.path !== `/${topic}`) out.push(`path ${req.path}`);
      if (auth && req.headers.authorization !== auth) out.push('authorization wrong');
      if (!req.headers.title) out.push('Title header missing');
      if (!/^[1-5]$/.test(req.headers.priority ?? '')) out.push(`Priority ${req.headers.priority}`);
      if (req.headers.markdown !== 'yes') out.push('Markdown header is not yes');
      if (Buffer.byteLength(req.body) > 4096) out.push('body over 4096 bytes (would become an attachment)');
      return out;
    },
    ok: (req) => ({ status: 200, body: { id: 'sPs71M8A2T', time: Math.floor(Date.now() / 1000), event: 'message', topic, message: req.body } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 429, body: { code: 42901, http: 429, error: 'limit reached: too many requests', link: 'https://ntfy.sh/docs/publish/#limitations' } }
        : { status: 403, body: { code: 40301, http: 403, error: detail || 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' } },
  });
  await fake.start();
  fake.config = {
    server_url: fake.url,
    topic,
    ...(o.accessToken ? { access_token: o.accessToken } : {}),
    ...(o.user ? { username: o.user, password: o.password } : {}),
  };
  return fake;
}

/** Gotify: POST /message, X-Gotify-Key header, JSON {title, message, priority, extras}. */
export async function startFakeGotify(o: { appToken?: string } = {}): Promise<FakeProvider<ChannelConfig<'gotify'>>> {
  const token = o.appToken ?? 'AzDNgTJ5J0C3kqS';
  const fake = new FakeProvider<ChannelConfig<'gotify'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== '/message') out.push(`path ${req.path}`);
      if (req.headers['x-gotify-key'] !== token) out.push('X-Gotify-Key wrong');
      out.push(...stringFields(req, ['message']));
      if (!Number.isInteger(field(req, 'priority'))) out.push('priority is not an integer');
      const display = field(req, 'extras.client::display.contentType');
      if (display !== undefined && display !== 'text/plain' && display !== 'text/markdown') out.push(`client::display contentType ${String(display)}`);
      return out;
    },
    ok: (req) => ({ status: 200, body: { id: 25, appid: 5, message: field(req, 'message') as string, title: field(req, 'title') as string, priority: field(req, 'priority') as number, date: new Date().toISOString() } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 429, body: { error: 'Too Many Requests', errorCode: 429, errorDescription: 'slow down' } }
        : { status: 401, body: { error: 'Unauthorized', errorCode: 401, errorDescription: detail || 'you need to provide a valid access token or user credentials to access this api' } },
  });
  await fake.start();
  fake.config = { server_url: fake.url, app_token: token };
  return fake;
}

/** Slack incoming webhook: POST /services/T…/B…/<secret>, JSON {text, blocks?}; answers `ok` or a plain-text error. */
export async function startFakeSlack(): Promise<FakeProvider<ChannelConfig<'slack'>>> {
  const path = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
  const fake = new FakeProvider<ChannelConfig<'slack'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== path) out.push(`path ${req.path}`);
      out.push(...stringFields(req, ['text']));
      const blocks = field(req, 'blocks');
      if (blocks !== undefined && (!Array.isArray(blocks) || blocks.some((b) => typeof b?.type !== 'string'))) out.push('blocks malformed');
      return out;
    },
    ok: () => ({ status: 200, body: 'ok' }),
    failure: (kind, detail) => (kind === 'rate' ? { status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } } : { status: 400, body: detail ? `invalid_payload ${detail}` : 'invalid_payload' }),
  });
  await fake.start();
  fake.config = { webhook_url: `${fake.url}${path}` };
  return fake;
}

/** Discord execute webhook: POST /api/webhooks/<id>/<token>?wait=true, JSON {content ≤ 2000 chars}. */
export async function startFakeDiscord(): Promise<FakeProvider<ChannelConfig<'discord'>>> {
  const path = '/api/webhooks/1234567890/AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789';
  const fake = new FakeProvider<ChannelConfig<'discord'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== path) out.push(`path ${req.path}`);
      if (req.query.wait !== 'true') out.push('wait=true missing');
      const content = field(req, 'content');
      if (typeof content !== 'string' || content === '' || content.length > 2000) out.push('content missing or over 2000 characters');
      return out;
    },
    ok: (req) => ({ status: 200, body: { id: '1100000000000000000', type: 0, content: field(req, 'content') as string, channel_id: '1', webhook_id: '1234567890' } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 429, body: { message: 'You are being rate limited.', retry_after: 1.5, global: false } }
        : { status: 401, body: { message: detail || 'Invalid Webhook Token', code: 50027 } },
  });
  await fake.start();
  fake.config = { webhook_url: `${fake.url}${path}` };
  return fake;
}

/** Telegram-compatible bot API: POST /bot<token>/sendMessage JSON {chat_id, text, parse_mode: HTML}. */
export async function startFakeMessenger(o: { token?: string; chatId?: string } = {}): Promise<FakeProvider<ChannelConfig<'messenger'>>> {
  const token = o.token ?? '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11';
  const chatId = o.chatId ?? '-1001234567890';
  const fake = new FakeProvider<ChannelConfig<'messenger'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== `/bot${token}/sendMessage`) out.push('path or token wrong');
      if (String(field(req, 'chat_id')) !== chatId) out.push('chat_id wrong');
      if (field(req, 'parse_mode') !== 'HTML') out.push('parse_mode is not HTML');
      const text = field(req, 'text');
      if (typeof text !== 'string' || text === '' || text.length > 4096) out.push('text missing or over 4096 characters');
      return out;
    },
    ok: (req) => ({ status: 200, body: { ok: true, result: { message_id: 1, chat: { id: Number(chatId) }, text: field(req, 'text') as string } } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 5', parameters: { retry_after: 5 } } }
        : { status: 400, body: { ok: false, error_code: 400, description: detail || 'Bad Request: chat not found' } },
  });
  await fake.start();
  fake.config = { api_base: fake.url, bot_token: token, chat_id: chatId };
  return fake;
}

/** A generic webhook receiver at /hook; with a secret, checks `X-Signature: sha256=<hex HMAC of the body>`. */
export async function startFakeWebhook(o: { secret?: string } = {}): Promise<FakeProvider<ChannelConfig<'webhook'>>> {
  const fake = new FakeProvider<ChannelConfig<'webhook'>>({
    check(req) {
      const out: string[] = [];
      if (req.path !== '/hook') out.push(`path ${req.path}`);
      if (o.secret) {
        const expected = Buffer.from(`sha256=${createHmac('sha256', o.secret).update(req.body).digest('hex')}`);
        const got = Buffer.from(req.headers['x-signature'] ?? '');
        if (got.length !== expected.length || !timingSafeEqual(got, expected)) out.push('X-Signature does not match the body');
      }
      return out;
    },
    ok: () => ({ status: 200, body: { ok: true } }),
    failure: (kind, detail) => (kind === 'rate' ? { status: 429, body: 'Too Many Requests' } : { status: 400, body: detail || 'bad request' }),
  });
  await fake.start();
  fake.config = { url: `${fake.url}/hook`, method: 'POST', body_format: 'json', ...(o.secret ? { secret: o.secret } : {}) };
  return fake;
}
