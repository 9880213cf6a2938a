/** The audit log: pages with the spec's filters, one entry, the action names, the CSV export. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { liveSession } from '../client';
import { ApiError, apiErrorFrom, NetworkError } from '../errors';
import { call, type Query, type Reply } from '../typed';

export type AuditEntry = Reply<'GET /api/audit'>['items'][number];
export type AuditFilters = Omit<NonNullable<Query<'GET /api/audit'>>, 'limit' | 'offset'>;

export const auditQueries = {
  all: ['audit'] as const,
  page: (filters: AuditFilters, limit: number, offset: number) =>
    queryOptions({
      queryKey: ['audit', 'page', filters, limit, offset],
      queryFn: () => call('GET /api/audit', { query: { ...filters, limit, offset } }),
      placeholderData: keepPreviousData,
    }),
  entry: (id: number) => queryOptions({ queryKey: ['audit', 'entry', id], queryFn: () => call('GET /api/audit/{id}', { params: { id } }) }),
  actions: () => queryOptions({ queryKey: ['audit', 'actions'], queryFn: () => call('GET /api/audit/actions'), staleTime: 60_000 }),
};

/** The export's URL for these filters (empty ones left out). */
export function exportUrl(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `/api/audit/export.csv?${qs}` : '/api/audit/export.csv';
}

/**
 * Downloads the CSV of every entry matching the filters. A file, not JSON, so it is fetched
 * here with the session's token and handed to the browser as a download.
 */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const session = await liveSession();
  if (!session) throw new ApiError(401, 'Not signed in');
  let res: Response;
  try {
    res = await fetch(exportUrl(filters), { headers: { authorization: `Bearer ${session.access}` } });
  } catch {
    throw new NetworkError();
  }
  if (!res.ok) throw await apiErrorFrom(res);
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'audit.csv';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
