/**
 * PushPlus (`/send` on www.pushplus.plus): JSON {token, title, content, template: "markdown",
 * topic?} (topic: a group push). The default base is https (the service answers on both; the token
 * travels in the body, so never in clear). Title at most 100 characters, content at most 20,000.
 * Errors: `{code≠200, msg}` (900 and 999: rate limited or the service failing, worth a retry).
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, checkCodeReply, truncateChars, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

export const PUSHPLUS_BASE = 'https://www.pushplus.plus';

export function createPushplusNotifier(channel: string, config: ChannelConfig<'pushplus'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.token]);
  const url = `${(config.api_base ?? PUSHPLUS_BASE).replace(/\/+$/, '')}/send`;
  return {
    channel,
    async send(message) {
      const res = await http.postJson(url, {
        token: config.token,
        title: truncateChars(message.title, 100),
        content: truncateChars(message.markdown || message.text, 20_000),
        template: 'markdown',
        ...(config.topic ? { topic: config.topic } : {}),
      });
      checkCodeReply(http, res, { code: 'code', ok: 200, message: 'msg', retryCodes: [900, 999] });
    },
  };
}
