/**
 * The console's URLs. Each page is its own chunk, loaded when first visited. Every route has an
 * error element: a page that cannot load (service down, a chunk gone after an upgrade) shows
 * "could not be loaded" with Retry in place of the page, inside the shell.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { lazyPage as page } from './lazy-page';
import { PLACEHOLDERS } from './nav';
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
      ...PLACEHOLDERS.map((p) => ({ path: p.path.slice(1), lazy: page(() => import('../pages/placeholder/PlaceholderPage')) })),
      { path: '*', element: <Navigate to="/" replace /> },
    ]),
  },
]);
