/**
 * Feishu / Lark custom bot (`https://open.feishu.cn/open-apis/bot/v2/hook/<token>`, or the Lark
 * host `open.larksuite.com`: the host is whatever the webhook URL names). With a signing secret,
 * the body carries `timestamp` (seconds, as a string) and `sign` = base64(HmacSHA256(key =
 * "<timestamp>\n<secret>", message = empty)). A `post` (rich text) message: title plus the plain
 * text body, each line one paragraph (post text elements do not render Markdown). The whole
 * request must stay under 20 KB, so the body is capped at 16,000 bytes. Errors: `{code≠0, msg}`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, hmacBase64, truncateBytes, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

/** 11232: the bot sends too often (100 a minute, 5 a second); 9499 "Bad Request" is not worth a retry. */
const RETRY_CODES = [11232];

export function feishuSignature(secret: string, timestampSeconds: number): string {
  return hmacBase64(`${timestampSeconds}\n${secret}`, '');
}

export function createFeishuNotifier(channel: string, config: ChannelConfig<'feishu'>, deps: NotifierDeps): Notifier {
  const token = new URL(config.webhook_url).pathname.split('/').pop();
  const http = new ChannelHttp(channel, deps, [config.webhook_url, config.secret, token]);
  return {
    channel,
    async send(message) {
      const lines = truncateBytes(message.text, 16_000).split('\n');
      const body: Record<string, unknown> = {
        msg_type: 'post',
        content: { post: { zh_cn: { title: message.title, content: lines.map((line) => [{ tag: 'text', text: line }]) } } },
      };
      if (config.secret) {
        const timestamp = Math.floor((deps.now ?? Date.now)() / 1000);
        body.timestamp = String(timestamp);
        body.sign = feishuSignature(config.secret, timestamp);
      }
      const res = await http.postJson(config.webhook_url, body);
      checkCodeReply(http, res, { code: 'code', ok: 0, message: 'msg', retryCodes: RETRY_CODES });
    },
  };
}
