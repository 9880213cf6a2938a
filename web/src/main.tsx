/**
 * The console's entry: providers (theme with a per-browser colour scheme, data cache, toasts,
 * translations) and the router. What a page needs beyond that loads with the page.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { onSignedOut } from './api/client';
import { ApiError } from './api/errors';
import { loginPathFor } from './app/auth';
import { router } from './app/router';
import './i18n';

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  cursorType: 'pointer',
});

const colorSchemeManager = localStorageColorSchemeManager({ key: 'fleet.color-scheme' });

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: true,
      // A refused request (4xx) will be refused again; only network trouble and 5xx are retried.
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status < 500),
    },
  },
});

// A login that cannot be refreshed: back to the login page, and afterwards to where we were.
onSignedOut(() => {
  queryClient.clear();
  if (window.location.pathname !== '/login') void router.navigate(loginPathFor(window.location, 'expired'), { replace: true });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <Notifications position="top-right" limit={4} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
