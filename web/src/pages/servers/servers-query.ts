/**
 * The servers table's request, shared by the page and its route loader. The loader starts the
 * first page's request while the page's code is still loading, so the rows are (nearly) there
 * when the table first renders; the page then finds the answer in the query cache.
 */
import type { FleetPageQuery } from '@server/modules/servers/fleet-query.schemas';
import type { QueryClient } from '@tanstack/react-query';
import { serverQueries } from '../../api/resources/servers';
import { readSession } from '../../api/session';
import { KEYS, loadView, parseView, type ServersView } from './useServersView';

export const PAGE_SIZE = 50;

export function searchQueryOf(view: ServersView): FleetPageQuery {
  return {
    q: view.q || undefined,
    tag: view.tag || undefined,
    status: view.status || undefined,
    sort: view.sort,
    order: view.order,
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
}


/** The view a visit to `url` will show: the one in the address, else the one remembered. */
function viewFor(url: URL): ServersView {
  const inUrl = KEYS.some((k) => url.searchParams.has(k));
  return inUrl ? parseView((k) => url.searchParams.get(k)) : (loadView() ?? parseView(() => null));
}

export function prefetchServers(client: QueryClient, url: URL): void {
  if (!readSession()) return; // signed out: the shell sends the visitor to the login page
  const q = searchQueryOf(viewFor(url));
  void client.prefetchQuery({ ...serverQueries.search(q), staleTime: 5_000 });
}
