/**
 * The console's entry: providers (theme with a per-browser colour scheme, data cache, toasts,
 * translations) and the router. What a page needs beyond that loads with the page.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { type CSSVariablesResolver, createTheme, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
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
import './i18n';

/** The theme; built per language so close buttons (toasts, dialogs) are named in it. */
const themeFor = (closeLabel: string) => createTheme({
  primaryColor: 'blue',
  // Shade 8: white text on filled buttons keeps AA contrast.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  cursorType: 'pointer',
  components: {
    // A toast's message in the text colour: Mantine's grey misses AA contrast on white.
    Notification: {
      styles: { description: { color: 'var(--mantine-color-text)' } },
      defaultProps: { closeButtonProps: { 'aria-label': closeLabel } },
    },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
  },
});

/**
 * Mantine's defaults miss WCAG AA contrast (4.5:1) for dimmed text, links and the light variant's
 * text on its tint; these keep every text colour at AA in both schemes (axe checks it in the journeys).
 */
const TINTED = ['blue', 'teal', 'red', 'orange', 'gray', 'green', 'yellow', 'violet'];
const DARKER = ['orange', 'yellow'];
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    ...Object.fromEntries(TINTED.flatMap((c) => [
      [`--mantine-color-${c}-light`, `var(--mantine-color-${c}-0)`],
      [`--mantine-color-${c}-light-hover`, `var(--mantine-color-${c}-1)`],
      // Orange and yellow are light even at shade 9: darkened further for text.
      [`--mantine-color-${c}-light-color`, DARKER.includes(c) ? `color-mix(in srgb, var(--mantine-color-${c}-9) 70%, black)` : `var(--mantine-color-${c}-9)`],
      [`--mantine-color-${c}-text`, DARKER.includes(c) ? `color-mix(in srgb, var(--mantine-color-${c}-9) 70%, black)` : `var(--mantine-color-${c}-9)`],
    ])),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-3)',
    ...Object.fromEntries(TINTED.flatMap((c) => [[`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-2)`], [`--mantine-color-${c}-text`, `var(--mantine-color-${c}-3)`]])),
  },
});

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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
