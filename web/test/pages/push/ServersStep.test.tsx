/** Choosing servers to push to: each row shows both signals; with no server at all, the next step is adding one. */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ServersStep } from '../../../src/pages/push/ServersStep';
import { renderWithProviders } from '../../render';
import { serverView } from '../servers/harness';

const api = vi.hoisted(() => ({ servers: { search: vi.fn(), tags: vi.fn(), ids: vi.fn() } }));
vi.mock('../../../src/api/endpoints', () => api);

beforeEach(() => {
  for (const fn of Object.values(api.servers)) fn.mockReset();
  api.servers.tags.mockResolvedValue([]);
});

describe('ServersStep', () => {
  it('with no server at all, offers "Add a server", which opens the servers form', async () => {
    api.servers.search.mockResolvedValue({ items: [], total: 0, limit: 25, offset: 0 });
    renderWithProviders(<ServersStep selected={new Set()} onChange={() => {}} />);
    const add = await screen.findByRole('link', { name: 'Add a server' }, { timeout: 5_000 });
    expect(add.getAttribute('href')).toBe('/servers?new=1');
    expect(screen.getByText('There is no server to push to yet.')).toBeTruthy();
  });

  it('shows the agent status and the SSH signal of each server', async () => {
    const at = new Date(Date.now() - 10 * 60_000 - 1_000).toISOString();
    api.servers.search.mockResolvedValue({
      items: [serverView({ id: 8, name: 'edge-1', status: 'unknown', last_heartbeat_at: null, ssh_status: 'failing', ssh_failing_since: at, ssh_last_error: 'timeout' })],
      total: 1, limit: 25, offset: 0,
    });
    renderWithProviders(<ServersStep selected={new Set()} onChange={() => {}} />);
    const row = (await screen.findByRole('checkbox', { name: 'edge-1' }, { timeout: 5_000 })).closest('tr')!;
    expect(within(row).getAllByRole('cell').at(-1)?.textContent).toBe('No agentSSH failing since 10 min. ago');
    expect(screen.queryByRole('link', { name: 'Add a server' })).toBeNull();
  });
});
