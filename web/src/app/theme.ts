/**
 * The console's Mantine theme and the CSS variables that keep every text colour at WCAG AA in
 * both colour schemes (web/test/app/contrast.test.ts computes the ratios from these).
 */
import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/** The theme; built per language so close buttons (toasts, dialogs) are named in it. */
export const themeFor = (closeLabel: string) => createTheme({
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
export const TINTED = ['blue', 'teal', 'red', 'orange', 'gray', 'green', 'yellow', 'violet'];
const DARKER = ['orange', 'yellow'];
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Form errors and error/success text: Mantine's red.6 and teal.8 are 3.3:1 and 3.9:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-success': 'var(--mantine-color-teal-9)',
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
    // Mantine's red.8 and teal.8 are 3.4:1 and 3.7:1 on the dark page (#242424).
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-success': 'var(--mantine-color-teal-4)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-3)',
    ...Object.fromEntries(TINTED.flatMap((c) => [[`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-2)`], [`--mantine-color-${c}-text`, `var(--mantine-color-${c}-3)`]])),
  },
});
