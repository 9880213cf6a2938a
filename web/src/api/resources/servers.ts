/**
 * Every query of servers comes from this factory, keyed under `['servers', …]`: invalidating
 * `serverQueries.all` refreshes the table, the tag counts, each opened server and every picker.
 */
import type { FleetPageQuery } from '@server/modules/servers/fleet-query.schemas';
import { queryOptions } from '@tanstack/react-query';
import { type FleetFilter, servers } from '../endpoints';

export const serverQueries = {
  all: ['servers'] as const,
  search: (q: FleetPageQuery) => queryOptions({ queryKey: ['servers', 'search', q] as const, queryFn: () => servers.search(q) }),
  one: (id: number) => queryOptions({ queryKey: ['servers', 'one', id] as const, queryFn: () => servers.get(id) }),
  tags: () => queryOptions({ queryKey: ['servers', 'tags'] as const, queryFn: servers.tags }),
  statusCounts: () => queryOptions({ queryKey: ['servers', 'status-counts'] as const, queryFn: servers.statusCounts }),
  ids: (f: FleetFilter) => queryOptions({ queryKey: ['servers', 'ids', f] as const, queryFn: () => servers.ids(f) }),
};
