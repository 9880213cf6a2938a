import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VIEW_STORAGE_KEY } from '../../../src/pages/servers/useServersView';
import { renderPage, serverView } from './harness';

const api = vi.hoisted(() => ({
  servers: {
    search: vi.fn(),
    tags: vi.fn(),
    get: vi.fn(),
    create: vi.fn(),
    update: vi.fn(),
    remove: vi.fn(),
    test: vi.fn(),
    forgetHostKey: vi.fn(),
    agentToken: vi.fn(),
  },
  credentials: { sshKeyPresets: vi.fn(), passwordPresets: vi.fn() },
}));
vi.mock('../../../src/api/endpoints', () => api);

const web1 = serverView();
const db2 = serverView({ id: 2, name: 'db-2', host: 'db.internal', port: 2222, status: 'offline', tags: ['db', 'prod'], host_key_fingerprint: null });

function page(items = [web1, db2], total = items.length) {
  return { items, total, limit: 50, offset: 0 };
}

beforeEach(() => {
  localStorage.clear();
  for (const group of [api.servers, api.credentials]) for (const fn of Object.values(group)) fn.mockReset();
  api.servers.search.mockResolvedValue(page());
  api.servers.tags.mockResolvedValue([{ tag: 'prod', count: 2 }, { tag: 'db', count: 1 }]);
  api.servers.get.mockImplementation(async (id: number) => (id === 1 ? web1 : db2));
});

describe('the servers table', () => {
  it('shows the count and one row per server in the table named Servers', async () => {
    api.servers.search.mockResolvedValue(page([web1, db2], 1234));
    renderPage();
    expect(await screen.findByText('1234 servers')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Servers' });
    expect(within(table).getByRole('link', { name: 'web-1' })).toBeTruthy();
    expect(within(table).getByText('db.internal:2222')).toBeTruthy();
    expect(within(table).getByText('Offline')).toBeTruthy();
    expect(api.servers.search).toHaveBeenCalledWith({ sort: 'name', order: 'asc', limit: 50, offset: 0 });
  });

  it('sends the filters, sort and page of the URL to the search and remembers them', async () => {
    renderPage('/servers?status=offline&tag=prod&sort=last_heartbeat&order=desc&page=2');
    await screen.findByRole('table', { name: 'Servers' });
    expect(api.servers.search).toHaveBeenCalledWith({ tag: 'prod', status: 'offline', sort: 'last_heartbeat', order: 'desc', limit: 50, offset: 50 });
    expect(JSON.parse(localStorage.getItem(VIEW_STORAGE_KEY)!)).toMatchObject({ tag: 'prod', status: 'offline', sort: 'last_heartbeat', order: 'desc', page: 2 });
  });

  it('searches after a pause in typing, puts q in the URL and goes back to page 1', async () => {
    const { search } = renderPage('/servers?page=3');
    await screen.findByRole('table', { name: 'Servers' });
    // Two keystrokes with no gap between them: on a loaded machine real typing can pause longer
    // than the debounce, which would make "one request per word" a matter of luck.
    const box = screen.getByLabelText('Search servers');
    fireEvent.change(box, { target: { value: 'd' } });
    fireEvent.change(box, { target: { value: 'db' } });
    expect(api.servers.search.mock.calls.filter(([q]) => q.q !== undefined)).toHaveLength(0);
    await waitFor(() => expect(api.servers.search).toHaveBeenLastCalledWith({ q: 'db', sort: 'name', order: 'asc', limit: 50, offset: 0 }));
    expect(api.servers.search.mock.calls.filter(([q]) => q.q === 'd')).toHaveLength(0);
    expect(search().get('q')).toBe('db');
    expect(search().get('page')).toBeNull();
  });

  it('restores the remembered view when /servers is opened without one', async () => {
    localStorage.setItem(VIEW_STORAGE_KEY, JSON.stringify({ q: 'web', tag: '', status: 'online', sort: 'status', order: 'desc', page: 1 }));
    const { search } = renderPage('/servers');
    await screen.findByRole('table', { name: 'Servers' });
    expect(api.servers.search).toHaveBeenCalledWith({ q: 'web', status: 'online', sort: 'status', order: 'desc', limit: 50, offset: 0 });
    expect(api.servers.search).not.toHaveBeenCalledWith(expect.objectContaining({ sort: 'name' }));
    expect(search().get('status')).toBe('online');
    expect((screen.getByLabelText('Search servers') as HTMLInputElement).value).toBe('web');
  });

  it('sorts by a column when its header is clicked, and reverses on a second click', async () => {
    const { search } = renderPage();
    await screen.findByRole('table', { name: 'Servers' });
    await userEvent.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(search().get('sort')).toBe('status'));
    expect(screen.getByRole('columnheader', { name: 'Status' }).getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(search().get('order')).toBe('desc'));
    expect(api.servers.search).toHaveBeenLastCalledWith({ sort: 'status', order: 'desc', limit: 50, offset: 0 });
  });

  it('says so when there are no servers at all', async () => {
    api.servers.search.mockResolvedValue(page([]));
    renderPage();
    expect(await screen.findByText(/No servers yet/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('0 servers')).toBeTruthy();
  });

  it('the next step of the empty state opens the form, and the form is in the URL (?new=1)', async () => {
    api.servers.search.mockResolvedValue(page([]));
    const { search } = renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add a server' }, { timeout: 5_000 }));
    expect(await screen.findByRole('dialog', { name: 'Add a server' })).toBeTruthy();
    expect(search().get('new')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(search().get('new')).toBeNull());
  });

  it('a link to /servers?new=1 ("Add a server" on the dashboard) opens the form at once', async () => {
    api.servers.search.mockResolvedValue(page([]));
    renderPage('/servers?new=1');
    expect(await screen.findByRole('dialog', { name: 'Add a server' }, { timeout: 5_000 })).toBeTruthy();
  });

  it('shows the SSH signal beside the agent status in each row', async () => {
    const at = new Date(Date.now() - 5 * 60_000 - 1_000).toISOString();
    api.servers.search.mockResolvedValue(
      page([
        serverView({ id: 3, name: 'no-agent', status: 'unknown', last_heartbeat_at: null, ssh_status: 'reachable', ssh_last_ok_at: at }),
        serverView({ id: 4, name: 'down', status: 'offline', ssh_status: 'failing', ssh_failing_since: at, ssh_last_error: 'timeout' }),
        serverView({ id: 5, name: 'fresh', status: 'unknown', last_heartbeat_at: null }),
      ]),
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Servers' }, { timeout: 5_000 });
    const statusOf = (name: string) => {
      const row = within(table).getByRole('link', { name }).closest('tr')!;
      const cells = within(row).getAllByRole('cell');
      return cells[4].textContent;
    };
    expect(statusOf('no-agent')).toBe('No agentSSH reachable 5 min. ago');
    expect(statusOf('down')).toBe('OfflineSSH failing since 5 min. ago');
    expect(statusOf('fresh')).toBe('No agentSSH never contacted');
  });

  it('says so when nothing matches, and clears the filters on request', async () => {
    api.servers.search.mockResolvedValue(page([]));
    const { search } = renderPage('/servers?q=zzz&status=offline');
    expect(await screen.findByText('No server matches these filters.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(search().toString()).toBe(''));
    expect((screen.getByLabelText('Search servers') as HTMLInputElement).value).toBe('');
  });
});

describe('the server detail', () => {
  it('opens from the row link with ?server=<id>, tests the connection and shows the latency', async () => {
    api.servers.test.mockResolvedValue({ ok: true, latency_ms: 42, error: null });
    const { search } = renderPage();
    await userEvent.click(await screen.findByRole('link', { name: 'web-1' }));
    expect(search().get('server')).toBe('1');
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected in 42 ms')).toBeTruthy();
    expect(api.servers.test).toHaveBeenCalledWith(1);
    expect(screen.getByText('SHA256:abcdef')).toBeTruthy();
  });

  it('shows why a connection test failed', async () => {
    api.servers.test.mockResolvedValue({ ok: false, latency_ms: null, error: 'Host key mismatch' });
    renderPage('/servers?server=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Host key mismatch')).toBeTruthy();
    expect(screen.getByText('Connection failed')).toBeTruthy();
  });

  it('deletes only after the name is typed', async () => {
    api.servers.remove.mockResolvedValue(undefined);
    const { search } = renderPage('/servers?server=2');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete server' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Type db-2 to confirm'), { target: { value: 'db-2' } });
    await userEvent.click(confirm);
    await waitFor(() => expect(api.servers.remove).toHaveBeenCalledWith(2, expect.stringMatching(/^[0-9a-f-]{32,36}$/)));
    await waitFor(() => expect(search().get('server')).toBeNull());
  });

  it('forgets the host key once the server name is typed, and offers nothing to forget when none is pinned', async () => {
    api.servers.forgetHostKey.mockResolvedValue({ ...web1, host_key_fingerprint: null });
    renderPage('/servers?server=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Forget host key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forget host key' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(`Type ${web1.name} to confirm`), { target: { value: web1.name } });
    await userEvent.click(confirm);
    expect(api.servers.forgetHostKey).toHaveBeenCalledWith(1);
    expect(await screen.findByText(/Not pinned yet/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Forget host key' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('builds the agent install command the install script supports', async () => {
    api.servers.agentToken.mockResolvedValue({ server_id: 1, agent_token: 'tok123' });
    renderPage('/servers?server=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Generate install command' }));
    const origin = window.location.origin;
    const cmd = await screen.findByText((text) => text.includes('install.sh'));
    expect(cmd.textContent).toBe(
      `f=$(mktemp) && curl -fsSL '${origin}/api/agent/install.sh' -o "$f" && FLEET_AGENT_TOKEN='tok123' sh "$f" --url '${origin}' --install; rm -f "$f"`,
    );
  });
});
