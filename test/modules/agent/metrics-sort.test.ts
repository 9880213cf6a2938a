/** The monitoring list's order: both directions, servers without a value always last, failures first by status. */
import { describe, expect, it } from 'vitest';
import type { MonitoredServerRow, PointRow } from '../../../src/modules/agent/heartbeat-points.repository.js';
import { sortMonitored, sortsByReading } from '../../../src/modules/agent/metrics-sort.js';

type Reading = Partial<Omit<PointRow, 'server_id'>>;
const rows: Array<[MonitoredServerRow, Reading | null]> = [
  [{ id: 1, name: 'web-10', host: '10.0.0.1', status: 'online', last_heartbeat_at: '2026-11-26T10:00:01.000Z' }, { cpu: 50, drift_s: -90, version: '1.10.0' }],
  [{ id: 2, name: 'web-9', host: '10.0.0.2', status: 'offline', last_heartbeat_at: '2026-11-26T10:00:02.000Z' }, { cpu: 95, drift_s: 3, version: '1.9.0' }],
  [{ id: 3, name: 'db', host: '10.0.0.3', status: 'unknown', last_heartbeat_at: null }, null],
  [{ id: 4, name: 'cache', host: '10.0.0.4', status: 'online', last_heartbeat_at: '2026-11-26T10:00:04.000Z' }, { cpu: 5, drift_s: 0, version: null }],
];
const servers = rows.map(([s]) => s);
const last = new Map(
  rows.flatMap(([s, r]) => (r ? [[s.id, { server_id: s.id, at: '', cpu: 0, mem: 0, disk: 0, load: null, drift_s: 0, version: null, ...r } as PointRow]] : [])),
);
const sorted = (key: Parameters<typeof sortMonitored>[2], order: 'asc' | 'desc') =>
  sortMonitored(servers, (id) => last.get(id), key, order).map((s) => s.name);

describe('monitoring list order', () => {
  it('sorts readings both ways and keeps servers without one last', () => {
    expect(sorted('cpu', 'desc')).toEqual(['web-9', 'web-10', 'cache', 'db']);
    expect(sorted('cpu', 'asc')).toEqual(['cache', 'web-10', 'web-9', 'db']);
    // Drift by its size, whichever the sign.
    expect(sorted('drift', 'desc')).toEqual(['web-10', 'web-9', 'cache', 'db']);
  });

  it('puts failures first by status, and compares names and versions numerically', () => {
    expect(sorted('status', 'asc')).toEqual(['web-9', 'db', 'cache', 'web-10']);
    expect(sorted('name', 'asc')).toEqual(['cache', 'db', 'web-9', 'web-10']);
    expect(sorted('name', 'desc')).toEqual(['web-10', 'web-9', 'db', 'cache']);
    expect(sorted('version', 'asc')).toEqual(['web-9', 'web-10', 'cache', 'db']);
    expect(sorted('last_heartbeat', 'desc')).toEqual(['cache', 'web-9', 'web-10', 'db']);
  });

  it('needs the readings only for the reading columns', () => {
    expect(['status', 'name', 'last_heartbeat'].map((k) => sortsByReading(k as never))).toEqual([false, false, false]);
    expect(['cpu', 'mem', 'disk', 'load', 'drift', 'version'].every((k) => sortsByReading(k as never))).toBe(true);
  });
});
