/**
 * The console's URLs. Each page is its own chunk, loaded when first visited. Every route has an
 * error element: a page that cannot load (service down, a chunk gone after an upgrade) shows
 * "could not be loaded" with Retry in place of the page, inside the shell.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { lazyPage as page } from './lazy-page';
import { queryClient } from './query-client';
import { RouteError } from './RouteError';

/** The same routes, each with the error element. */
const withErrors = (routes: RouteObject[]): RouteObject[] => routes.map((r) => ({ ...r, errorElement: <RouteError /> }) as RouteObject);

export const router = createBrowserRouter([
  // Without the shell (sign-in, or the shell's own chunk failing) the error element stands alone.
  { path: '/login', HydrateFallback: () => null, errorElement: <RouteError />, lazy: page(() => import('../pages/login/LoginPage')) },
  {
    path: '/',
    HydrateFallback: () => null,
    errorElement: <RouteError />,
    lazy: page(async () => ({ default: (await import('./Shell')).SignedInShell })),
    children: withErrors([
      { index: true, lazy: page(() => import('../pages/dashboard/DashboardPage')) },
      {
        path: 'servers',
        // Starts the table's request alongside the page's code instead of after it.
        lazy: page(
          () => import('../pages/servers/ServersPage'),
          async ({ request }) => (await import('../pages/servers/servers-query')).prefetchServers(queryClient, new URL(request.url)),
        ),
      },
      { path: 'push', lazy: page(() => import('../pages/push/PushPage')) },
      { path: 'history', lazy: page(() => import('../pages/history/HistoryPage')) },
      { path: 'history/:batchId', lazy: page(() => import('../pages/history/BatchPage')) },
      { path: 'retries', lazy: page(() => import('../pages/history/RetriesPage')) },
      { path: 'servers/:serverId/files', lazy: page(() => import('../pages/remote-files/RemoteFilesPage')) },
      { path: 'staging/*', lazy: page(() => import('../pages/staging/StagingPage')) },
      { path: 'tags', lazy: page(() => import('../pages/tags/TagsPage')) },
      { path: 'schedules/*', lazy: page(() => import('../pages/schedules/SchedulesPage')) },
      { path: 'scripts/*', lazy: page(() => import('../pages/scripts/ScriptsPage')) },
      { path: 'alerts/*', lazy: page(() => import('../pages/alerts/AlertsPage')) },
      { path: 'monitoring', lazy: page(() => import('../pages/monitoring/MonitoringPage')) },
      { path: 'settings', lazy: page(() => import('../pages/settings/SettingsPage')) },
      { path: 'notifications', lazy: page(() => import('../pages/notifications/NotificationsPage')) },
      { path: 'channels', lazy: page(() => import('../pages/channels/ChannelsPage')) },
      { path: 'allowlist', lazy: page(() => import('../pages/allowlist/AllowlistPage')) },
      { path: 'credentials/*', lazy: page(() => import('../pages/credentials/CredentialsPage')) },
      { path: 'administrators', lazy: page(() => import('../pages/administrators/AdministratorsPage')) },
      { path: 'account', lazy: page(() => import('../pages/account/AccountPage')) },
      { path: 'audit/*', lazy: page(() => import('../pages/audit/AuditPage')) },
      { path: '*', element: <Navigate to="/" replace /> },
    ]),
  },
]);
