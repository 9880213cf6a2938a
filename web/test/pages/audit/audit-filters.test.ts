/** The audit view in the URL: filters and page read back as written; malformed values are dropped. */
import { describe, expect, it } from 'vitest';
import { exportUrl } from '../../../src/api/resources/audit';
import { paramsFrom, viewFrom } from '../../../src/pages/audit/audit-filters';

describe('audit view in the URL', () => {
  it('round-trips every filter and the page', () => {
    const view = { filters: { action: 'create_server', admin_username: 'alice', date_from: '2026-11-01', date_to: '2026-11-26' }, page: 3 };
    const params = paramsFrom(view);
    expect(params.toString()).toBe('action=create_server&admin=alice&from=2026-11-01&to=2026-11-26&page=3');
    expect(viewFrom(params)).toEqual(view);
  });

  it('drops malformed dates and pages, and leaves page 1 out', () => {
    const view = viewFrom(new URLSearchParams('from=yesterday&to=2026-13&page=-2&action=%20'));
    expect(view).toEqual({ filters: {}, page: 1 });
    expect(paramsFrom(view).toString()).toBe('');
  });

  it('builds the export URL from the same filters, without empty ones', () => {
    expect(exportUrl({})).toBe('/api/audit/export.csv');
    expect(exportUrl({ action: 'login', admin_username: '', date_from: '2026-11-01' })).toBe('/api/audit/export.csv?action=login&date_from=2026-11-01');
  });
});
