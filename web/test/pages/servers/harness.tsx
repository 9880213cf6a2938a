/** Renders the Servers page as the app does (Mantine, react-query, a router) against mocked endpoints. */
import { MantineProvider } from '@mantine/core';
import type { ServerView } from '@server/modules/servers/servers.schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import ServersPage from '../../../src/pages/servers/ServersPage';

export function serverView(over: Partial<ServerView> = {}): ServerView {
  return {
    id: 1,
    name: 'web-1',
    host: '10.0.0.1',
    port: 22,
    username: 'deploy',
    auth_type: 'key',
    ssh_key_preset_id: null,
    password_preset_id: null,
    has_credentials: true,
    target_path: '/srv/app',
    tags: ['prod'],
    host_key_fingerprint: 'SHA256:abcdef',
    status: 'online',
    last_heartbeat_at: new Date().toISOString(),
    ssh_status: 'never',
    ssh_last_ok_at: null,
    ssh_last_error_at: null,
    ssh_last_error: null,
    ssh_failing_since: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...over,
  };
}

export function renderPage(url = '/servers') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '/servers', element: <ServersPage /> }], { initialEntries: [url] });
  const utils = render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  /** The current query string as URLSearchParams. */
  const search = () => new URLSearchParams(router.state.location.search);
  return { ...utils, router, search };
}
