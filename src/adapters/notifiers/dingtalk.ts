/**
 * DingTalk group robot (custom robot webhook, `https://oapi.dingtalk.com/robot/send?access_token=…`).
 * With a signing secret, `timestamp` (milliseconds) and `sign` =
 * urlencode(base64(HmacSHA256(key=secret, "<timestamp>\n<secret>"))) are added to the query; the
 * robot refuses timestamps more than an hour off. Errors come as HTTP 200 `{errcode≠0, errmsg}`.
 * Markdown text is capped at 20,000 bytes (the robot's documented content limit).
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, hmacBase64, titledMarkdown, truncateBytes, withQuery, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

const MAX_BYTES = 20_000;
/** 130101: sending too fast (20 messages a minute per robot); 130102 likewise. */
const RATE_LIMITED = [130101, 130102];

export function dingtalkSignature(secret: string, timestamp: number): string {
  return hmacBase64(secret, `${timestamp}\n${secret}`);
}

export function createDingtalkNotifier(channel: string, config: ChannelConfig<'dingtalk'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.webhook_url, config.secret, new URL(config.webhook_url).searchParams.get('access_token')]);
  return {
    channel,
    async send(message) {
      let url = config.webhook_url;
      if (config.secret) {
        const timestamp = (deps.now ?? Date.now)();
        url = withQuery(url, { timestamp: String(timestamp), sign: dingtalkSignature(config.secret, timestamp) });
      }
      const mobiles = config.at_mobiles ?? [];
      // A mention only notifies when the number also appears in the text.
      const mentions = mobiles.length ? `\n\n${mobiles.map((m) => `@${m}`).join(' ')}` : '';
      const text = truncateBytes(titledMarkdown(message.title, message.markdown), MAX_BYTES - Buffer.byteLength(mentions)) + mentions;
      const res = await http.postJson(url, {
        msgtype: 'markdown',
        markdown: { title: message.title, text },
        at: { atMobiles: mobiles, isAtAll: false },
      });
      checkCodeReply(http, res, { code: 'errcode', ok: 0, message: 'errmsg', retryCodes: RATE_LIMITED });
    },
  };
}
