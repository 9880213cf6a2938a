/**
 * Alerts: the open ones (live), the history with the spec's filters, statistics, and the CSV
 * export of a filtered history. Query keys start with `alerts`, so invalidating `['alerts']`
 * (an `alert` or `recovery` on the socket) refreshes every view of them.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { liveSession } from '../client';
import { ApiError, apiErrorFrom, NetworkError } from '../errors';
import { call, type Query, type Reply } from '../typed';

export type HistoryQuery = Query<'GET /api/alert-history'>;
export type ExportQuery = Query<'GET /api/alert-history/export.csv'>;
export type Stats = Reply<'GET /api/alert-history/stats'>;

export const alertQueries = {
  all: ['alerts'] as const,
  active: (limit = 200) => queryOptions({ queryKey: ['alerts', 'active', limit], queryFn: () => call('GET /api/alert-history/active', { query: { limit } }) }),
  history: (q: HistoryQuery) =>
    queryOptions({
      queryKey: ['alerts', 'history', q],
      queryFn: () => call('GET /api/alert-history', { query: q }),
      placeholderData: keepPreviousData,
    }),
  stats: (days: number) => queryOptions({ queryKey: ['alerts', 'stats', days], queryFn: () => call('GET /api/alert-history/stats', { query: { days } }) }),
};

/** The export URL for these filters (exactly the list's filters, no paging). */
export function exportUrl(f: ExportQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `/api/alert-history/export.csv${qs ? `?${qs}` : ''}`;
}

/** The file name the service proposes in its Content-Disposition, else a fallback. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return m ? m[1] : fallback;
}

/**
 * Downloads the filtered history as CSV. The request needs the bearer token, so it is fetched
 * and handed to the browser as a blob (a plain link could not carry the token).
 */
export async function downloadAlertCsv(f: ExportQuery): Promise<void> {
  const session = await liveSession();
  if (!session) throw new ApiError(401, 'Not signed in');
  let res: Response;
  try {
    res = await fetch(exportUrl(f), { headers: { authorization: `Bearer ${session.access}` } });
  } catch {
    throw new NetworkError();
  }
  if (!res.ok) throw await apiErrorFrom(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameFrom(res.headers.get('content-disposition'), 'alert-history.csv');
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
