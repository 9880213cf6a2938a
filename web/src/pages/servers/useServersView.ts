/**
 * What the operator chose to see (search, tag, status, sort, page) lives in the URL, so a view can
 * be shared and the back button works, and in localStorage, so coming back to /servers without
 * a query restores the last view. `?server=<id>` (the open detail) is kept apart: it is not a view.
 */
import type { FleetSort, ServerStatus } from '@server/modules/servers/fleet-query.schemas';
import { useCallback, useEffect, useState } from 'react';
import { useLatestSearchParams } from '../../components/use-latest-search-params';

export interface ServersView {
  q: string;
  tag: string;
  status: ServerStatus | '';
  sort: FleetSort;
  order: 'asc' | 'desc';
  page: number;
}

export const DEFAULT_VIEW: ServersView = { q: '', tag: '', status: '', sort: 'name', order: 'asc', page: 1 };
export const VIEW_STORAGE_KEY = 'fleet.servers.view';
export const KEYS = ['q', 'tag', 'status', 'sort', 'order', 'page'] as const;
const STATUSES: readonly string[] = ['online', 'offline', 'unknown'];
const SORTS: readonly string[] = ['name', 'status', 'last_heartbeat', 'created'];

/** Anything unknown (an old bookmark, a hand-edited URL) falls back to the default. */
export function parseView(get: (k: string) => string | null | undefined): ServersView {
  const status = get('status') ?? '';
  const sort = get('sort') ?? '';
  const page = Number(get('page'));
  return {
    q: (get('q') ?? '').slice(0, 255),
    tag: (get('tag') ?? '').slice(0, 64),
    status: STATUSES.includes(status) ? (status as ServerStatus) : '',
    sort: SORTS.includes(sort) ? (sort as FleetSort) : DEFAULT_VIEW.sort,
    order: get('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The view written into `params` (defaults left out, so a plain /servers stays plain); other params kept. */
export function writeView(params: URLSearchParams, view: ServersView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const k of KEYS) {
    const v = String(view[k]);
    if (v === String(DEFAULT_VIEW[k])) next.delete(k);
    else next.set(k, v);
  }
  return next;
}

export function hasFilters(v: ServersView): boolean {
  return v.q !== '' || v.tag !== '' || v.status !== '';
}

export function loadView(): ServersView | null {
  try {
    const raw = localStorage.getItem(VIEW_STORAGE_KEY);
    if (!raw) return null;
    const o = JSON.parse(raw) as Record<string, unknown>;
    return parseView((k) => (o[k] === undefined || o[k] === null ? null : String(o[k])));
  } catch {
    return null; // storage blocked or garbage: start from the default
  }
}

function saveView(v: ServersView): void {
  try {
    localStorage.setItem(VIEW_STORAGE_KEY, JSON.stringify(v));
  } catch {
    // storage full or blocked: the URL still holds the view
  }
}

export function useServersView() {
  const [params, write] = useLatestSearchParams();
  const inUrl = KEYS.some((k) => params.has(k));
  // Arriving without a view in the URL (the nav link, a bookmark to /servers): the saved one, once.
  const [saved] = useState(() => {
    const v = inUrl ? null : loadView();
    return v && writeView(new URLSearchParams(), v).size > 0 ? v : null;
  });
  // Until the URL holds it (navigation is asynchronous), the saved view is shown: no request for the default.
  const [restoring, setRestoring] = useState(saved !== null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    if (saved) write((p) => writeView(p, saved), { replace: true });
  }, []);
  useEffect(() => {
    if (restoring && inUrl) setRestoring(false);
  }, [restoring, inUrl]);

  const view = restoring && saved ? saved : parseView((k) => params.get(k));
  const serialized = JSON.stringify(view);
  useEffect(() => {
    if (!restoring) saveView(JSON.parse(serialized) as ServersView);
  }, [serialized, restoring]);

  /**
   * A change of filter or sort goes back to page 1 unless a page is given. Both writers start from
   * the params last written (useLatestSearchParams): a debounced search firing after a row was
   * opened must keep `?server=`.
   */
  const update = useCallback(
    (patch: Partial<ServersView>) => write((p) => writeView(p, { ...parseView((k) => p.get(k)), page: 1, ...patch }), { replace: true }),
    [write],
  );

  const serverId = Number(params.get('server')) || null;
  const openServer = useCallback(
    (id: number | null) =>
      write((next) => {
        if (id === null) next.delete('server');
        else next.set('server', String(id));
        return next;
      }),
    [write],
  );

  /** The add-server form lives in the URL too (`?new=1`), so an empty state elsewhere can link straight to it. */
  const creating = params.get('new') === '1';
  const setCreating = useCallback(
    (open: boolean) =>
      write((next) => {
        if (open) next.set('new', '1');
        else next.delete('new');
        return next;
      }),
    [write],
  );

  return { view, update, serverId, openServer, creating, setCreating, params };
}
