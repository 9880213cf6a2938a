/**
 * Sorting the monitoring table (the sort lives in the URL). Servers without a reading always
 * sort after those with one, whichever the direction, so "highest CPU first" never starts with
 * blanks; `status` puts offline first, then no agent, then online (failures first).
 */
import type { ServerMetrics } from '../../api/resources/monitoring';

export const SORT_KEYS = ['status', 'name', 'cpu', 'mem', 'disk', 'load', 'drift', 'version', 'last_heartbeat'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

const STATUS_RANK: Record<string, number> = { offline: 0, unknown: 1, online: 2 };

function keyOf(s: ServerMetrics, key: SortKey): string | number | null {
  switch (key) {
    case 'status':
      return STATUS_RANK[s.status] ?? 3;
    case 'name':
      return s.name.toLowerCase();
    case 'cpu':
    case 'mem':
    case 'disk':
      return s.last ? s.last[key] : null;
    case 'load':
      return s.last?.load ?? null;
    case 'drift':
      return s.last ? Math.abs(s.last.drift_s) : null;
    case 'version':
      return s.last?.version ?? null;
    case 'last_heartbeat':
      return s.last_heartbeat_at;
  }
}

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // Versions and names: numeric-aware, so 1.10.0 sorts after 1.9.0.
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

export function sortServers(items: ServerMetrics[], key: SortKey, order: SortOrder): ServerMetrics[] {
  const dir = order === 'asc' ? 1 : -1;
  return [...items].sort((x, y) => {
    const a = keyOf(x, key);
    const b = keyOf(y, key);
    if (a === null && b !== null) return 1;
    if (b === null && a !== null) return -1;
    const c = a === null || b === null ? 0 : compareValues(a, b) * dir;
    return c || x.name.localeCompare(y.name, undefined, { numeric: true }) || x.server_id - y.server_id;
  });
}

export function readSort(p: URLSearchParams): { key: SortKey; order: SortOrder } {
  const raw = p.get('sort');
  const key = (SORT_KEYS as readonly string[]).includes(raw ?? '') ? (raw as SortKey) : 'status';
  const order = p.get('order') === 'desc' ? 'desc' : 'asc';
  return { key, order };
}

/** The natural first direction of a column: biggest first for readings, A→Z for names. */
export function defaultOrder(key: SortKey): SortOrder {
  return key === 'cpu' || key === 'mem' || key === 'disk' || key === 'load' || key === 'drift' || key === 'last_heartbeat' ? 'desc' : 'asc';
}
