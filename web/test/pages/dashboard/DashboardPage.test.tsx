/** The dashboard: the agent and SSH signals counted apart, and empty cards that offer their next step. */
import type { DashboardView } from '@server/modules/dashboard/dashboard.schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import DashboardPage from '../../../src/pages/dashboard/DashboardPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

vi.mock('../../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

function view(over: Partial<DashboardView> = {}): DashboardView {
  return {
    servers: { total: 0, online: 0, offline: 0, unknown: 0, no_agent: 0, ssh: { reachable: 0, failing: 0, never: 0 } },
    alerts: { active: 0, items: [] },
    pushes: [],
    retries: { pending: 0, running: 0, failed: 0, recent_failed: [] },
    ...over,
  } as DashboardView;
}

function Where() {
  const l = useLocation();
  return <output aria-label="location">{`${l.pathname}${l.search}`}</output>;
}

function renderDashboard(v: DashboardView) {
  fakeApi((r) => (r.path === '/api/dashboard' ? json(200, v) : undefined));
  return renderWithProviders(
    <>
      <DashboardPage />
      <Where />
    </>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('DashboardPage', () => {
  it('a fresh install: "Add a server" opens the servers form, "Start a push" the push page', async () => {
    renderDashboard(view());
    const add = await screen.findByRole('link', { name: 'Add a server' }, { timeout: 5_000 });
    expect(screen.getByText('No servers yet.')).toBeTruthy();
    expect(add.getAttribute('href')).toBe('/servers?new=1');
    expect(screen.getByText('No pushes yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start a push' }).getAttribute('href')).toBe('/push');
    await userEvent.click(add);
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/servers?new=1');
  });

  it('counts servers by agent (no agent is not unknown) and by SSH reachability, apart', async () => {
    renderDashboard(view({ servers: { total: 7, online: 1, offline: 2, unknown: 4, no_agent: 4, ssh: { reachable: 5, failing: 1, never: 1 } } }));
    const agent = await screen.findByRole('group', { name: 'Agent' }, { timeout: 5_000 });
    const cells = (g: HTMLElement) => within(g).getAllByText(/^\d+$/).map((n) => `${n.textContent} ${n.nextElementSibling?.textContent}`);
    expect(cells(agent)).toEqual(['2 Offline', '4 No agent', '1 Online']);
    expect(within(agent).getByRole('link', { name: '4 No agent' }).getAttribute('href')).toBe('/servers?status=unknown');
    expect(cells(screen.getByRole('group', { name: 'SSH' }))).toEqual(['1 Failing', '1 Never contacted', '5 Reachable']);
    expect(screen.queryByRole('link', { name: 'Add a server' })).toBeNull();
    expect(screen.queryByText('Unknown')).toBeNull();
  });
});
