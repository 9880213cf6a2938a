/** Alerts: the open ones refetch when the socket reports an alert; the history sends its URL filters. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import AlertsPage from '../../../src/pages/alerts/AlertsPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

const live = vi.hoisted(() => ({ listeners: new Set<(m: unknown) => void>() }));
vi.mock('../../../src/api/socket', () => ({
  liveSocket: {
    onMessage: (l: (m: unknown) => void) => {
      live.listeners.add(l);
      return () => live.listeners.delete(l);
    },
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

const alert = (id: number, server: string, type: string, value: number | null) => ({
  id,
  server_id: id,
  server_name: server,
  alert_type: type,
  value,
  since: new Date(Date.now() - 60_000).toISOString(),
});

describe('AlertsPage', () => {
  it('shows the open alerts and refetches them when the socket reports a new one', async () => {
    let items = [alert(1, 'web-01', 'cpu', 97)];
    fakeApi((r) => (r.path === '/api/alert-history/active' ? json(200, { active: items.length, items }) : undefined));
    renderWithProviders(<AlertsPage />, { path: '/alerts', route: '/alerts/*' });
    const table = await screen.findByRole('table', { name: 'Open now' });
    expect(within(table).getByText('web-01')).toBeTruthy();
    expect(within(table).getByText('97%')).toBeTruthy();
    expect(screen.getByText('1 alert open')).toBeTruthy();

    items = [alert(2, 'db-01', 'time_drift', 75), ...items];
    for (const l of live.listeners) l({ type: 'alert', id: 2, server_id: 2, server_name: 'db-01', alert_type: 'time_drift', value: 75 });
    expect(await within(table).findByText('db-01')).toBeTruthy();
    expect(within(table).getByText('75 s')).toBeTruthy();
    expect(within(table).getByText('Clock drift')).toBeTruthy();
    expect(screen.getByText('2 alerts open')).toBeTruthy();
  });

  it('sends the filters of the URL to the history and shows recoveries as such', async () => {
    const sent = fakeApi((r) => {
      if (r.path === '/api/alert-history')
        return json(200, {
          items: [{ id: 9, server_id: 3, server_name: 'web-03', alert_type: 'mem', value: 40, is_recovery: true, created_at: new Date().toISOString() }],
          total: 1, limit: 50, offset: 0, page: 1, per_page: 50, pages: 1,
        });
      if (r.path === '/api/servers/search') return json(200, { items: [], total: 0, limit: 100, offset: 0 });
      return undefined;
    });
    renderWithProviders(<AlertsPage />, { path: '/alerts/history?type=mem&server=3&status=recovered&from=2026-11-01&to=2026-11-27', route: '/alerts/*' });
    const table = await screen.findByRole('table', { name: 'Alert history' });
    expect(within(table).getByText('Recovered')).toBeTruthy();
    const q = sent.find((r) => r.path === '/api/alert-history')!.query;
    expect(Object.fromEntries(q)).toEqual({ type: 'mem', server_id: '3', status: 'recovered', date_from: '2026-11-01', date_to: '2026-11-27', page: '1', per_page: '50' });
    // The server filter names the server from the rows even though the search did not list it.
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Server' }) as HTMLInputElement).value).toBe('web-03'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(Object.fromEntries(sent.filter((r) => r.path === '/api/alert-history').at(-1)!.query)).toEqual({ page: '1', per_page: '50' }));
  });
});
