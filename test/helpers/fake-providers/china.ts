/**
 * Fakes of the providers used mostly in mainland China: DingTalk and WeCom robots, Feishu custom
 * bots, ServerChan and PushPlus. Each checks path, query, body shape and (where the provider signs)
 * the signature, computed here independently with node:crypto; answers in the provider's format.
 */
import { createHmac } from 'node:crypto';
import type { ChannelConfig } from '../../../src/adapters/notifiers/channel-configs.js';
import { FakeProvider, field, jsonPostProblems, stringFields, type ReceivedRequest } from './fake-provider.js';

const hmac64 = (key: string, msg: string) => createHmac('sha256', key).update(msg).digest('base64');

/** DingTalk robot: POST /robot/send?access_token=…[&timestamp=<ms>&sign=…], markdown {title, text}. */
export async function startFakeDingtalk(o: { accessToken?: string; secret?: string } = {}): Promise<FakeProvider<ChannelConfig<'dingtalk'>>> {
  const token = o.accessToken ?? 'dt-access-token-0123456789';
  const fake = new FakeProvider<ChannelConfig<'dingtalk'>>({
    check(req: ReceivedRequest) {
      const out = jsonPostProblems(req);
      if (req.path !== '/robot/send') out.push(`path ${req.path}`);
      if (req.query.access_token !== token) out.push('access_token wrong');
      if (o.secret) {
        const ts = Number(req.query.timestamp);
        if (!Number.isInteger(ts) || Math.abs(Date.now() - ts) > 3_600_000) out.push('timestamp missing or more than an hour off');
        // `sign` arrives URL-encoded in the query; URLSearchParams has decoded it once.
        if (req.query.sign !== hmac64(o.secret, `${req.query.timestamp}\n${o.secret}`)) out.push('sign does not match');
      }
      if (field(req, 'msgtype') !== 'markdown') out.push('msgtype is not markdown');
      out.push(...stringFields(req, ['markdown.title', 'markdown.text']));
      return out;
    },
    ok: () => ({ status: 200, body: { errcode: 0, errmsg: 'ok' } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 200, body: { errcode: 130101, errmsg: 'send too fast, exceed 20 times per minute' } }
        : { status: 200, body: { errcode: 310000, errmsg: detail || 'sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]' } },
  });
  await fake.start();
  fake.config = { webhook_url: `${fake.url}/robot/send?access_token=${token}`, ...(o.secret ? { secret: o.secret } : {}) };
  return fake;
}

/** WeCom group robot: POST /cgi-bin/webhook/send?key=…, markdown {content} or text {content, mentioned_mobile_list}. */
export async function startFakeWecom(o: { key?: string } = {}): Promise<FakeProvider<ChannelConfig<'wecom'>>> {
  const key = o.key ?? '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa';
  const fake = new FakeProvider<ChannelConfig<'wecom'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== '/cgi-bin/webhook/send') out.push(`path ${req.path}`);
      if (req.query.key !== key) out.push('key wrong');
      const type = field(req, 'msgtype');
      if (type !== 'markdown' && type !== 'text') out.push(`msgtype ${String(type)}`);
      else {
        out.push(...stringFields(req, [`${type}.content`]));
        const limit = type === 'markdown' ? 4096 : 2048;
        if (Buffer.byteLength(String(field(req, `${type}.content`))) > limit) out.push(`content over ${limit} bytes`);
      }
      return out;
    },
    ok: () => ({ status: 200, body: { errcode: 0, errmsg: 'ok' } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 200, body: { errcode: 45009, errmsg: 'api freq out of limit' } }
        : { status: 200, body: { errcode: 93000, errmsg: detail || 'invalid webhook url, hint: [1700000000_1_abc]' } },
  });
  await fake.start();
  fake.config = { webhook_url: `${fake.url}/cgi-bin/webhook/send?key=${key}` };
  return fake;
}

/** Feishu custom bot: POST /open-apis/bot/v2/hook/<token>, post message, optional {timestamp (s), sign}. */
export async function startFakeFeishu(o: { token?: string; secret?: string } = {}): Promise<FakeProvider<ChannelConfig<'feishu'>>> {
  const token = o.token ?? '5e3d587e-d78e-4a07-bd07-265f269f86fd';
  const fake = new FakeProvider<ChannelConfig<'feishu'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== `/open-apis/bot/v2/hook/${token}`) out.push(`path ${req.path}`);
      if (Buffer.byteLength(req.body) > 20 * 1024) out.push('request body over 20 KB');
      if (o.secret) {
        const ts = field(req, 'timestamp');
        if (typeof ts !== 'string' || Math.abs(Date.now() / 1000 - Number(ts)) > 3600) out.push('timestamp missing, not a string of seconds or more than an hour off');
        const key = `${String(ts)}\n${o.secret}`;
        if (field(req, 'sign') !== createHmac('sha256', key).update(Buffer.alloc(0)).digest('base64')) out.push('sign does not match');
      }
      if (field(req, 'msg_type') !== 'post') out.push('msg_type is not post');
      out.push(...stringFields(req, ['content.post.zh_cn.title']));
      const content = field(req, 'content.post.zh_cn.content');
      if (!Array.isArray(content) || !content.every((p) => Array.isArray(p) && p.every((e) => e?.tag === 'text' && typeof e.text === 'string'))) {
        out.push('content is not a list of paragraphs of text elements');
      }
      return out;
    },
    ok: () => ({ status: 200, body: { code: 0, msg: 'success', data: {} } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 200, body: { code: 11232, msg: 'frequency limited psm[lark.oapi.app_platform_runtime]appID[1]', data: {} } }
        : { status: 200, body: { code: 19021, msg: detail || 'sign match fail or timestamp is not within one hour from current time', data: {} } },
  });
  await fake.start();
  fake.config = { webhook_url: `${fake.url}/open-apis/bot/v2/hook/${token}`, ...(o.secret ? { secret: o.secret } : {}) };
  return fake;
}

/**
 * ServerChan: Turbo keys at /<key>.send, Server酱³ keys (`sctp<uid>t…`) at /send/<key>.send;
 * JSON {title ≤ 32 chars, desp}.
 */
export async function startFakeServerchan(o: { sendKey?: string } = {}): Promise<FakeProvider<ChannelConfig<'serverchan'>>> {
  const key = o.sendKey ?? 'SCT123456TabcdefABCDEF0123456789';
  const v3 = /^sctp\d+t/i.test(key);
  const fake = new FakeProvider<ChannelConfig<'serverchan'>>({
    check(req) {
      const out = jsonPostProblems(req);
      const path = v3 ? `/send/${key}.send` : `/${key}.send`;
      if (req.path !== path) out.push(`path ${req.path}`);
      out.push(...stringFields(req, ['title']));
      if (String(field(req, 'title') ?? '').length > 32) out.push('title over 32 characters');
      if (typeof field(req, 'desp') !== 'string') out.push('desp missing');
      return out;
    },
    ok: () => ({ status: 200, body: { code: 0, message: '', data: { pushid: '12345', readkey: 'SCTabc', error: 'SUCCESS', errno: 0 } } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 200, body: { code: 40001, message: '超过当天的发送次数限制[5]，请稍后再试', data: null } }
        : { status: 200, body: { code: 40001, message: detail || 'bad pushtoken', data: null } },
  });
  await fake.start();
  fake.config = { send_key: key, api_base: fake.url };
  return fake;
}

/** PushPlus: POST /send JSON {token, title, content, template: markdown, topic?}. */
export async function startFakePushplus(o: { token?: string } = {}): Promise<FakeProvider<ChannelConfig<'pushplus'>>> {
  const token = o.token ?? '0123456789abcdef0123456789abcdef';
  const fake = new FakeProvider<ChannelConfig<'pushplus'>>({
    check(req) {
      const out = jsonPostProblems(req);
      if (req.path !== '/send') out.push(`path ${req.path}`);
      if (field(req, 'token') !== token) out.push('token wrong');
      if (field(req, 'template') !== 'markdown') out.push('template is not markdown');
      out.push(...stringFields(req, ['title', 'content']));
      return out;
    },
    ok: () => ({ status: 200, body: { code: 200, msg: '请求成功', data: 'c3b0b7a2f1e84d6a9d0f', count: null } }),
    failure: (kind, detail) =>
      kind === 'rate'
        ? { status: 200, body: { code: 900, msg: '用户账号使用受限', data: null } }
        : { status: 200, body: { code: 903, msg: detail || '无效的用户token', data: null } },
  });
  await fake.start();
  fake.config = { token, api_base: fake.url };
  return fake;
}
