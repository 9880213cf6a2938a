/** The console's URLs. Each page is its own chunk, loaded when first visited. */
import { createBrowserRouter, Navigate } from 'react-router';
import { PLACEHOLDERS } from './nav';
import { queryClient } from './query-client';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  { path: '/login', HydrateFallback: () => null, lazy: page(() => import('../pages/login/LoginPage')) },
  {
    path: '/',
    HydrateFallback: () => null,
    lazy: async () => ({ Component: (await import('./Shell')).SignedInShell }),
    children: [
      { index: true, lazy: page(() => import('../pages/dashboard/DashboardPage')) },
      {
        path: 'servers',
        // Starts the table's request alongside the page's code instead of after it.
        loader: async ({ request }) => {
          (await import('../pages/servers/servers-query')).prefetchServers(queryClient, new URL(request.url));
          return null;
        },
        lazy: page(() => import('../pages/servers/ServersPage')),
      },
      { path: 'push', lazy: page(() => import('../pages/push/PushPage')) },
      { path: 'history', lazy: page(() => import('../pages/history/HistoryPage')) },
      { path: 'history/:batchId', lazy: page(() => import('../pages/history/BatchPage')) },
      { path: 'retries', lazy: page(() => import('../pages/history/RetriesPage')) },
      ...PLACEHOLDERS.map((p) => ({ path: p.path.slice(1), lazy: page(() => import('../pages/placeholder/PlaceholderPage')) })),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
