/**
 * The order of the monitoring list. Rules: servers without a value for the key (no reading yet,
 * no load, no version) come after those with one, whichever the direction, so "highest CPU
 * first" never starts with blanks; `status` puts offline first, then no agent, then online
 * (failures first); `drift` is the size of the clock difference, either way; names and versions
 * compare numbers as numbers (web-9 before web-10, 1.9.0 before 1.10.0); ties go by name, then id,
 * so a page boundary never moves between two calls over the same data.
 */
import type { MetricsSort } from './agent.schemas.js';
import type { MonitoredServerRow, PointRow } from './heartbeat-points.repository.js';

const STATUS_RANK: Record<string, number> = { offline: 0, unknown: 1, online: 2 };
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Whether sorting by `key` needs every server's newest reading (not only the servers table). */
export function sortsByReading(key: MetricsSort): boolean {
  return key !== 'status' && key !== 'name' && key !== 'last_heartbeat';
}

function keyOf(s: MonitoredServerRow, last: PointRow | undefined, key: MetricsSort): string | number | null {
  switch (key) {
    case 'status':
      return STATUS_RANK[s.status] ?? 3;
    case 'name':
      return s.name;
    case 'cpu':
    case 'mem':
    case 'disk':
      return last ? last[key] : null;
    case 'load':
      return last?.load ?? null;
    case 'drift':
      return last ? Math.abs(last.drift_s) : null;
    case 'version':
      return last?.version ?? null;
    case 'last_heartbeat':
      return s.last_heartbeat_at;
  }
}

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** `servers` sorted (a new array); `lastOf` gives a server's newest reading, if any. */
export function sortMonitored(
  servers: MonitoredServerRow[],
  lastOf: (id: number) => PointRow | undefined,
  key: MetricsSort,
  order: 'asc' | 'desc',
): MonitoredServerRow[] {
  const dir = order === 'asc' ? 1 : -1;
  const keyed = servers.map((s) => ({ s, k: keyOf(s, lastOf(Number(s.id)), key) }));
  keyed.sort((x, y) => {
    const a = x.k;
    const b = y.k;
    if (a === null && b !== null) return 1;
    if (b === null && a !== null) return -1;
    const c = a === null || b === null ? 0 : compareValues(a, b) * dir;
    return c || collator.compare(x.s.name, y.s.name) || Number(x.s.id) - Number(y.s.id);
  });
  return keyed.map((x) => x.s);
}
