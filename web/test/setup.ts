/** jsdom lacks a few browser APIs Mantine reads; these stand-ins only answer "no". */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18nReady } from '../src/i18n';

await i18nReady;

afterEach(() => cleanup());

// findBy*/waitFor wait for a condition, they do not time it: on a machine whose cores are all busy a
// render can take seconds, and RTL's default of one second then fails tests that are right.
configure({ asyncUtilTimeout: 10_000 });

window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => {};
