/**
 * The messaging bot channel: each bot's test message, token reveal (with the password) and chat
 * discovery. Its settings (tokens, chat ids, `notify_*` switches) are written through settingsApi.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ChatList } from '@server/modules/messenger/messenger.schemas';
import { api } from '../client';

export type BotKind = 'default' | 'offline';
export type Chat = ChatList['chats'][number];

const base = (kind: BotKind) => (kind === 'offline' ? '/api/settings/messenger/offline' : '/api/settings/messenger');

export const notificationQueries = {
  all: ['notifications'] as const,
  /** Asked on demand (enabled: false): it talks to the bot service and may clear its webhook. */
  chats: (kind: BotKind) =>
    queryOptions({ queryKey: ['notifications', 'chats', kind], queryFn: () => api.get<ChatList>(`${base(kind)}/chats`), enabled: false, retry: false }),
};

export const notificationsApi = {
  test: (kind: BotKind) => api.post<{ success: boolean }>(`${base(kind)}/test`),
  revealToken: (kind: BotKind, currentPassword: string) =>
    api.post<{ key: string; value: string }>(`${base(kind)}/reveal-token`, { current_password: currentPassword }),
};
