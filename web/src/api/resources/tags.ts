/**
 * Tags across the fleet: the list with server counts, rename (merging only when asked) and
 * removal. A tag change is a change of servers too, so callers invalidate `servers` as well.
 */
import type { TagCount } from '@server/modules/servers/fleet-query.schemas';
import type { TagChangeResult } from '@server/modules/servers/server-tags.schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';

export const tagQueries = {
  all: ['tags'] as const,
  list: () => queryOptions({ queryKey: ['tags', 'list'], queryFn: () => api.get<TagCount[]>('/api/servers/tags') }),
};

export const tagsApi = {
  rename: (from: string, to: string, merge: boolean, key: string) =>
    api.post<TagChangeResult>('/api/servers/tags/rename', { from, to, merge }, { idempotencyKey: key }),
  remove: (tag: string, key: string) => api.del<TagChangeResult>(`/api/servers/tags/${encodeURIComponent(tag)}`, { idempotencyKey: key }),
};
