/**
 * The console's entry: providers (theme with a per-browser colour scheme, data cache, toasts,
 * translations) and the router. What a page needs beyond that loads with the page.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/touch-targets.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { onSignedOut } from './api/client';
import { loginPathFor } from './app/auth';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { cssVariablesResolver, themeFor } from './app/theme';
import { i18nReady } from './i18n';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'fleet.color-scheme' });


// A login that cannot be refreshed: back to the login page, and afterwards to where we were.
onSignedOut(() => {
  queryClient.clear();
  if (window.location.pathname !== '/login') void router.navigate(loginPathFor(window.location, 'expired'), { replace: true });
});

function Root() {
  const { t } = useTranslation();
  const theme = useMemo(() => themeFor(t('common.close')), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <Notifications position="top-right" limit={4} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

// The chosen language's strings first (one small chunk); if it cannot load, render anyway.
void i18nReady
  .catch(() => {})
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <Root />
      </StrictMode>,
    ),
  );
