/**
 * The messaging bot channel: each bot's test message, token reveal (with the password) and chat
 * discovery. Its settings (tokens, chat ids, `notify_*` switches) are written through settingsApi.
 */
import { queryOptions } from '@tanstack/react-query';
import { call, type Reply } from '../typed';

export type BotKind = 'default' | 'offline';
export type Chat = Reply<'GET /api/settings/messenger/chats'>['chats'][number];

export const notificationQueries = {
  all: ['notifications'] as const,
  /** Asked on demand (enabled: false): it talks to the bot service and may clear its webhook. */
  chats: (kind: BotKind) =>
    queryOptions({
      queryKey: ['notifications', 'chats', kind],
      queryFn: () => (kind === 'offline' ? call('GET /api/settings/messenger/offline/chats') : call('GET /api/settings/messenger/chats')),
      enabled: false,
      retry: false,
    }),
};

export const notificationsApi = {
  test: (kind: BotKind) => (kind === 'offline' ? call('POST /api/settings/messenger/offline/test') : call('POST /api/settings/messenger/test')),
  revealToken: (kind: BotKind, currentPassword: string) => {
    const body = { current_password: currentPassword };
    return kind === 'offline'
      ? call('POST /api/settings/messenger/offline/reveal-token', { body })
      : call('POST /api/settings/messenger/reveal-token', { body });
  },
};
