/**
 * Tags across the fleet: the list with server counts, rename (merging only when asked) and
 * removal. A tag change is a change of servers too, so callers invalidate `servers` as well.
 */
import { queryOptions } from '@tanstack/react-query';
import { call } from '../typed';

export const tagQueries = {
  all: ['tags'] as const,
  list: () => queryOptions({ queryKey: ['tags', 'list'], queryFn: () => call('GET /api/servers/tags') }),
};

export const tagsApi = {
  rename: (from: string, to: string, merge: boolean, idempotencyKey: string) =>
    call('POST /api/servers/tags/rename', { body: { from, to, merge }, idempotencyKey }),
  remove: (tag: string, idempotencyKey: string) => call('DELETE /api/servers/tags/{tag}', { params: { tag }, idempotencyKey }),
};
