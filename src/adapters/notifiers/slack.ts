/**
 * Slack incoming webhook (`https://hooks.slack.com/services/…`): JSON {text, blocks}, where text is
 * the notification fallback and the blocks a header (plain text, 150 characters) and a section in
 * mrkdwn (3,000 characters). Slack's mrkdwn marks bold with single asterisks, so `**x**` becomes
 * `*x*`. Success is HTTP 200 with the body `ok`; errors are plain-text bodies such as
 * `invalid_payload`, `invalid_token`, `no_service`, `channel_is_archived`.
 */
import type { ChannelConfig } from './channel-configs.js';
import { ChannelHttp, truncateChars, type NotifierDeps } from './channel-http.js';
import type { Notifier } from './notifier.js';

/** Markdown → Slack mrkdwn for what the message format produces: bold and links. */
export function toMrkdwn(markdown: string): string {
  return markdown
    .replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'))
    .replace(/\*\*(.+?)\*\*/g, '*$1*')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<$2|$1>');
}

export function createSlackNotifier(channel: string, config: ChannelConfig<'slack'>, deps: NotifierDeps): Notifier {
  const http = new ChannelHttp(channel, deps, [config.webhook_url, new URL(config.webhook_url).pathname]);
  return {
    channel,
    async send(message) {
      const body = toMrkdwn(message.markdown || message.text);
      const res = await http.postJson(config.webhook_url, {
        text: truncateChars(`${message.title}\n${message.text}`, 3000),
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: truncateChars(message.title, 150) } },
          ...(body ? [{ type: 'section', text: { type: 'mrkdwn', text: truncateChars(body, 3000) } }] : []),
        ],
      });
      if (res.status >= 200 && res.status < 300) return;
      throw http.httpFailure(res);
    },
  };
}
