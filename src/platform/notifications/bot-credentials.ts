/** The two bots' credentials as currently configured (tokens decrypted on read). */
import type { SecretSettings } from '../settings/secret-settings.js';
import type { RuntimeSettings } from '../settings/runtime-settings.js';

export type BotKind = 'default' | 'offline';

export interface BotCredentials {
  kind: BotKind;
  tokenKey: 'messenger_bot_token' | 'messenger_offline_bot_token';
  chatKey: 'messenger_chat_id' | 'messenger_offline_chat_id';
  token: string | null;
  chatId: string | null;
  /** Channel name used in logs and errors. */
  channel: 'messenger' | 'messenger_offline';
}

export function botCredentials(kind: BotKind, settings: RuntimeSettings, secrets: SecretSettings): BotCredentials {
  const tokenKey = kind === 'offline' ? 'messenger_offline_bot_token' : 'messenger_bot_token';
  const chatKey = kind === 'offline' ? 'messenger_offline_chat_id' : 'messenger_chat_id';
  const chatId = settings.get(chatKey)?.trim() || null;
  return {
    kind,
    tokenKey,
    chatKey,
    token: secrets.readOrNull(tokenKey)?.trim() || null,
    chatId,
    channel: kind === 'offline' ? 'messenger_offline' : 'messenger',
  };
}
