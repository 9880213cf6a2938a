/** jsdom lacks a few browser APIs Mantine reads; these stand-ins only answer "no". */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import '../src/i18n';

afterEach(() => cleanup());

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
