/**
 * The monitoring table's sort, kept in the URL; the service sorts (see MetricsSort: servers
 * without a reading last either way, `status` failures first).
 */
import type { MetricsSort } from '@server/modules/agent/agent.schemas';

export const SORT_KEYS = ['status', 'name', 'cpu', 'mem', 'disk', 'load', 'drift', 'version', 'last_heartbeat'] as const satisfies readonly MetricsSort[];
export type SortKey = (typeof SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

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
