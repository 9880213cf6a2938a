/**
 * WeCom (企业微信) group robot (`https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…`): a
 * `markdown` message, content at most 4,096 UTF-8 bytes. Mentions by mobile number only exist for
 * the `text` type, so a channel with `mentioned_mobile_list` sends text (at most 2,048 bytes).
 * Errors come as HTTP 200 `{errcode≠0, errmsg}`; 45009 is the robot's rate limit (20 a minute).
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, titledMarkdown, truncateBytes, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

export function createWecomNotifier(channel: string, config: ChannelConfig<'wecom'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.webhook_url, new URL(config.webhook_url).searchParams.get('key')]);
  return {
    channel,
    async send(message) {
      const mobiles = config.mentioned_mobile_list ?? [];
      const body = mobiles.length
        ? { msgtype: 'text', text: { content: truncateBytes(`${message.title}\n\n${message.text}`, 2048), mentioned_mobile_list: mobiles } }
        : { msgtype: 'markdown', markdown: { content: truncateBytes(titledMarkdown(message.title, message.markdown), 4096) } };
      const res = await http.postJson(config.webhook_url, body);
      checkCodeReply(http, res, { code: 'errcode', ok: 0, message: 'errmsg', retryCodes: [45009] });
    },
  };
}
