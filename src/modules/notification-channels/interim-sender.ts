/**
 * The test sender used until the notification platform's delivery is wired in (issue 29: the
 * channel files and the delivery platform land separately). It sends through the one channel type
 * this build can already reach, the messenger bot (its existing client), and answers every other
 * type with a plain "not available" failure instead of pretending to deliver.
 */
import { MessengerBotClient } from '../../adapters/notifiers/messenger-notifier.js';
import { NotifierError } from '../../adapters/notifiers/notifier.js';
import type { ChannelConfig } from '../../adapters/notifiers/channel-configs.js';
import type { SendTest } from './channel-test.js';

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function interimSender(defaultApiBase: string): SendTest {
  return async (channel) => {
    const name = `${channel.type}:${channel.id}`;
    if (channel.type !== 'messenger') throw new NotifierError(name, `Sending through ${channel.type} channels is not available in this build`, false);
    const c = channel.config as ChannelConfig<'messenger'>;
    const client = new MessengerBotClient({ apiBase: c.api_base ?? defaultApiBase, token: c.bot_token, channel: name });
    await client.sendMessage(c.chat_id, `<b>Fleet Admin</b>: test message from the channel “${escapeHtml(channel.name)}”.`);
  };
}
