/**
 * The Telegram-compatible messenger bot as a channel type: its own API base (default the Telegram
 * Bot API), bot token and chat, through the same `MessengerBotClient` as the settings-based bot,
 * but over the guarded request (target checked, answer capped). HTML text at most 4,096
 * characters (the Bot API's sendMessage limit); a cut message drops its markup rather than
 * sending a broken tag.
 */
import type { ChannelConfig } from './channel-configs.js';
import type { NotifierDeps } from './channel-http.js';
import { truncateChars } from './channel-http.js';
import { MessengerBotClient } from './messenger-notifier.js';
import type { Notifier } from './notifier.js';

export const MESSENGER_DEFAULT_BASE = 'https://api.telegram.org';
const MAX_CHARS = 4096;

function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));
}

export function createMessengerChannelNotifier(channel: string, config: ChannelConfig<'messenger'>, deps: NotifierDeps): Notifier {
  const client = new MessengerBotClient({
    apiBase: config.api_base ?? MESSENGER_DEFAULT_BASE,
    token: config.bot_token,
    timeoutMs: deps.timeoutMs,
    channel,
    transport: (url, init) => deps.request(url, init),
  });
  return {
    channel,
    async send(message) {
      const html =
        message.html.length <= MAX_CHARS
          ? message.html
          : escapeHtml(truncateChars(`${message.title}\n\n${message.text}`, MAX_CHARS - 200));
      await client.sendMessage(config.chat_id, html);
    },
  };
}
