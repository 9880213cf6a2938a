/** The monitoring table's URL state (the service sorts: test/modules/agent/metrics-sort.test.ts). */
import { describe, expect, it } from 'vitest';
import { isOn } from '../../../src/pages/monitoring/MonitoringSettings';
import { defaultOrder, readSort } from '../../../src/pages/monitoring/monitoring-sort';

describe('monitoring sort', () => {
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
