/** Notification channels: list, the per-type config schemas, create/update/delete, test and reveal. */
import { queryOptions } from '@tanstack/react-query';
import { call, type Body, type Reply } from '../typed';

export type Channel = Reply<'GET /api/notification-channels'>[number];
export type ChannelTypeInfo = Reply<'GET /api/notification-channels/types'>['types'][number];
export type ChannelType = Channel['type'];
export type CreateChannel = Body<'POST /api/notification-channels'>;
export type UpdateChannel = Body<'PUT /api/notification-channels/{id}'>;

/** What the service shows in place of a stored secret; sent back unchanged it keeps the secret. */
export const SECRET_MASK = '********';

export const channelQueries = {
  all: ['channels'] as const,
  list: () => queryOptions({ queryKey: ['channels', 'list'], queryFn: () => call('GET /api/notification-channels') }),
  /** Fixed for a given service version: fetched once per session. */
  types: () => queryOptions({ queryKey: ['channels', 'types'], queryFn: () => call('GET /api/notification-channels/types'), staleTime: Infinity }),
};

export const channelsApi = {
  create: (body: CreateChannel) => call('POST /api/notification-channels', { body }),
  update: (id: number, body: UpdateChannel) => call('PUT /api/notification-channels/{id}', { params: { id }, body }),
  remove: (id: number) => call('DELETE /api/notification-channels/{id}', { params: { id } }),
  test: (id: number) => call('POST /api/notification-channels/{id}/test', { params: { id } }),
  reveal: (id: number, current_password: string) =>
    call('POST /api/notification-channels/{id}/reveal', { params: { id }, body: { current_password } }),
};
