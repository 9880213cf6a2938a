/** Sorting the monitoring table: both directions, servers without a reading always last, URL state. */
import type { ServerMetrics } from '../../../src/api/resources/monitoring';
import { describe, expect, it } from 'vitest';
import { isOn } from '../../../src/pages/monitoring/MonitoringSettings';
import { defaultOrder, readSort, sortServers } from '../../../src/pages/monitoring/monitoring-sort';

function server(id: number, name: string, status: string, last: Partial<NonNullable<ServerMetrics['last']>> | null): ServerMetrics {
  return {
    server_id: id,
    name,
    host: `10.0.0.${id}`,
    status,
    last_heartbeat_at: last ? `2026-11-26T10:00:0${id}.000Z` : null,
    last: last ? { at: '2026-11-26T10:00:00.000Z', cpu: 0, mem: 0, disk: 0, load: null, drift_s: 0, version: null, ...last } : null,
    points: [],
  };
}

const fleet = [
  server(1, 'web-10', 'online', { cpu: 50, drift_s: -90, version: '1.10.0' }),
  server(2, 'web-9', 'offline', { cpu: 95, drift_s: 3, version: '1.9.0' }),
  server(3, 'db', 'unknown', null),
  server(4, 'cache', 'online', { cpu: 5, drift_s: 0, version: null }),
];
const names = (xs: ServerMetrics[]) => xs.map((s) => s.name);

describe('monitoring sort', () => {
  it('sorts readings both ways and keeps servers without one last', () => {
    expect(names(sortServers(fleet, 'cpu', 'desc'))).toEqual(['web-9', 'web-10', 'cache', 'db']);
    expect(names(sortServers(fleet, 'cpu', 'asc'))).toEqual(['cache', 'web-10', 'web-9', 'db']);
    // Drift by its size, whichever the sign.
    expect(names(sortServers(fleet, 'drift', 'desc'))).toEqual(['web-10', 'web-9', 'cache', 'db']);
  });

  it('puts failures first by status, and compares names and versions numerically', () => {
    expect(names(sortServers(fleet, 'status', 'asc'))).toEqual(['web-9', 'db', 'cache', 'web-10']);
    expect(names(sortServers(fleet, 'name', 'asc'))).toEqual(['cache', 'db', 'web-9', 'web-10']);
    expect(names(sortServers(fleet, 'version', 'asc'))).toEqual(['web-9', 'web-10', 'cache', 'db']);
    expect(names(sortServers(fleet, 'last_heartbeat', 'desc'))).toEqual(['cache', 'web-9', 'web-10', 'db']);
  });

  it('reads the sort from the URL with safe defaults', () => {
    expect(readSort(new URLSearchParams('sort=mem&order=desc'))).toEqual({ key: 'mem', order: 'desc' });
    expect(readSort(new URLSearchParams('sort=evil&order=sideways'))).toEqual({ key: 'status', order: 'asc' });
    expect(defaultOrder('cpu')).toBe('desc');
    expect(defaultOrder('name')).toBe('asc');
  });

  it('reads a notify switch as the service does: on when unset', () => {
    expect(isOn(null)).toBe(true);
    expect(isOn('')).toBe(true);
    expect(isOn('off')).toBe(false);
    expect(isOn('FALSE')).toBe(false);
    expect(isOn('Yes')).toBe(true);
  });
});
