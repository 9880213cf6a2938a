/** The alert history's URL state, the query it sends (shared with the CSV export), and values as read. */
import { describe, expect, it } from 'vitest';
import { exportUrl, fileNameFrom } from '../../../src/api/resources/alerts';
import { alertValue, hasFilters, readFilters, toQuery, writeFilters } from '../../../src/pages/alerts/alert-filters';
import { perDayByType } from '../../../src/pages/alerts/AlertStats';

const t = (k: string, o?: Record<string, unknown>) => `${k}:${JSON.stringify(o ?? {})}`;

describe('alert filters in the URL', () => {
  it('reads valid filters and drops malformed ones instead of sending them', () => {
    const f = readFilters(new URLSearchParams('type=cpu&server=7&status=recovered&from=2026-11-01&to=2026-11-30&page=3'));
    expect(f).toEqual({ type: 'cpu', server: 7, status: 'recovered', from: '2026-11-01', to: '2026-11-30', page: 3 });
    expect(toQuery(f)).toEqual({ type: 'cpu', server_id: 7, status: 'recovered', date_from: '2026-11-01', date_to: '2026-11-30' });
    const bad = readFilters(new URLSearchParams('type=DROP%20TABLE&server=-1&status=all&from=2026-02-30&to=yesterday&page=x'));
    expect(bad).toEqual({ type: '', server: null, status: '', from: '', to: '', page: 1 });
    expect(toQuery(bad)).toEqual({});
    expect(hasFilters(bad)).toBe(false);
  });

  it('writes a change, keeps the other filters, and returns to page 1', () => {
    const p = new URLSearchParams('type=cpu&page=4&other=kept');
    const next = writeFilters(p, { server: 3 });
    expect(next.toString()).toBe('type=cpu&other=kept&server=3');
    expect(writeFilters(next, { type: '', page: 2 }).toString()).toBe('other=kept&server=3&page=2');
  });

  it('exports with exactly the list filters, and takes the file name the service proposes', () => {
    expect(exportUrl({ type: 'mem', server_id: 2, date_from: '2026-11-27' })).toBe('/api/alert-history/export.csv?type=mem&server_id=2&date_from=2026-11-27');
    expect(exportUrl({})).toBe('/api/alert-history/export.csv');
    expect(fileNameFrom('attachment; filename="alert-history-2026-11-27.csv"', 'x.csv')).toBe('alert-history-2026-11-27.csv');
    expect(fileNameFrom(null, 'x.csv')).toBe('x.csv');
  });

  it('shows readings as percent, drift in seconds and no value for offline', () => {
    expect(alertValue('cpu', 97.5, t, 'en')).toBe('97.5%');
    expect(alertValue('time_drift', 75, t, 'en')).toBe('alerts.seconds:{"value":"75"}');
    expect(alertValue('offline', null, t, 'en')).toBe('—');
  });
});

describe('alerts per day by type', () => {
  it('fills every day with a count per occurring type, known types first in their order', () => {
    const { rows, types } = perDayByType({
      daily: [
        { day: '2026-11-25', alerts: 0, recoveries: 0 },
        { day: '2026-11-26', alerts: 3, recoveries: 1 },
      ],
      daily_types: [
        { day: '2026-11-26', alert_type: 'weird', count: 1 },
        { day: '2026-11-26', alert_type: 'disk', count: 1 },
        { day: '2026-11-26', alert_type: 'cpu', count: 1 },
      ],
    });
    expect(types).toEqual(['cpu', 'disk', 'weird']);
    expect(rows).toEqual([
      { day: '11-25', cpu: 0, disk: 0, weird: 0 },
      { day: '11-26', cpu: 1, disk: 1, weird: 1 },
    ]);
  });
});
