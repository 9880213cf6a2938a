/**
 * Finds the chats a bot has seen in its recent updates, for the "pick a chat" helper: sorted by
 * type (supergroup, group, channel, private, anything else) then numeric id, then cut to 10.
 */
import type { MessengerChatRaw, MessengerUpdate } from '../../adapters/notifiers/messenger-notifier.js';
import type { ChatEntry } from './messenger.schemas.js';

export type { ChatEntry };

export const MAX_CHATS = 10;

const TYPE_ORDER: Record<string, number> = { supergroup: 0, group: 1, channel: 2, private: 3 };

function asChat(value: unknown): MessengerChatRaw | null {
  if (!value || typeof value !== 'object') return null;
  const chat = value as MessengerChatRaw;
  return typeof chat.id === 'number' || (typeof chat.id === 'string' && chat.id !== '') ? chat : null;
}

function pick(obj: unknown, field: string): unknown {
  return obj && typeof obj === 'object' ? (obj as Record<string, unknown>)[field] : undefined;
}

/** The chats one update mentions (a callback query's chat is that of its message). */
function chatsOf(update: MessengerUpdate): MessengerChatRaw[] {
  const found = [
    pick(update.message, 'chat'),
    pick(update.edited_message, 'chat'),
    pick(update.channel_post, 'chat'),
    pick(update.my_chat_member, 'chat'),
    pick(update.chat_member, 'chat'),
    pick(pick(update.callback_query, 'message'), 'chat'),
  ];
  return found.map(asChat).filter((c): c is MessengerChatRaw => c !== null);
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function discoverChats(updates: unknown): ChatEntry[] {
  const byId = new Map<string, ChatEntry>();
  for (const update of Array.isArray(updates) ? updates : []) {
    if (!update || typeof update !== 'object') continue;
    for (const chat of chatsOf(update as MessengerUpdate)) {
      const username = str(chat.username);
      byId.set(String(chat.id), {
        id: chat.id,
        type: str(chat.type) ?? 'unknown',
        title: str(chat.title) ?? str(chat.first_name) ?? username ?? '',
        username,
      });
    }
  }
  const rank = (t: string) => TYPE_ORDER[t] ?? 4;
  return [...byId.values()]
    .sort((a, b) => rank(a.type) - rank(b.type) || Number(a.id) - Number(b.id))
    .slice(0, MAX_CHATS);
}
