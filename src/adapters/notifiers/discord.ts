/**
 * Discord execute webhook (`https://discord.com/api/webhooks/<id>/<token>`), with `?wait=true` so
 * a refused message comes back as an error instead of a silent 204. JSON {content, username?,
 * allowed_mentions: {parse: []}} (no @everyone or role pings from message text); content is
 * Markdown, at most 2,000 characters. Errors: `{message, code}`; 429 carries `retry_after`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, parseJson, retryableStatus, titledMarkdown, truncateChars, withQuery, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

export function createDiscordNotifier(channel: string, config: ChannelConfig<'discord'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.webhook_url, new URL(config.webhook_url).pathname.split('/').pop()]);
  return {
    channel,
    async send(message) {
      const res = await http.postJson(withQuery(config.webhook_url, { wait: 'true' }), {
        content: truncateChars(titledMarkdown(message.title, message.markdown || message.text), 2000),
        ...(config.username ? { username: config.username } : {}),
        allowed_mentions: { parse: [] },
      });
      if (res.status >= 200 && res.status < 300) return;
      const body = parseJson(res.text);
      if (body && typeof body.message === 'string') throw http.fail(`${body.message} (code ${String(body.code ?? res.status)})`, retryableStatus(res.status));
      throw http.httpFailure(res);
    },
  };
}
