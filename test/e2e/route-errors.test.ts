/**
 * A page that cannot load never takes the shell down: with the service stopped, opening a page
 * whose code was not loaded yet shows "could not be loaded" with Retry in place of the page, the
 * navigation still there; once the service is back, Retry loads the page.
 */
import { describe, expect, it } from 'vitest';
import { clickNav, mainHeading, pathOf } from './support/browser.js';
import { en, t } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

describe.each(WIDTHS)('route errors at %s', (viewport) => {
  it('a page opened while the service is stopped and recovered with Retry', async () => {
    // The phone in the dark scheme, so both looks of the error element are seen.
    const cp = await e2e.signedIn(viewport, { colorScheme: viewport === 'phone' ? 'dark' : 'light' });
    const { page } = cp;
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));
    // While the service is down the browser reports each refused request, the live socket's
    // reconnects and the page's failed import: that is the situation under test.
    cp.allow(/ERR_CONNECTION_REFUSED|Failed to fetch dynamically imported module|WebSocket|Failed to load resource/);

    await e2e.svc.halt();
    try {
      await clickNav(page, t(en, 'nav.history'));
      const alert = page.getByRole('main').getByRole('alert').filter({ hasText: t(en, 'errors.pageLoad') });
      await alert.waitFor({ timeout: 20_000 });
      expect(pathOf(page)).toBe('/history');
      // React Router's developer page never shows; the shell and its navigation stay.
      expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
      await expect.poll(() => page.getByRole('navigation').getByRole('link', { name: t(en, 'nav.dashboard'), exact: true }).count()).toBe(1);
      await page.screenshot({ path: `/tmp/route-error-${viewport}.png` });

      // Retry while still down: the shell stays and says the service cannot be reached.
      await alert.getByRole('button', { name: t(en, 'common.retry') }).click();
      await page.getByRole('main').getByText(t(en, 'errors.network')).waitFor({ timeout: 10_000 });
      expect(pathOf(page)).toBe('/history');
    } finally {
      await e2e.svc.resume();
    }

    await page
      .getByRole('main')
      .getByRole('alert')
      .getByRole('button', { name: t(en, 'common.retry') })
      .click();
    await expect.poll(() => mainHeading(page).textContent(), { timeout: 30_000 }).toBe(t(en, 'history.title'));
    expect(pathOf(page)).toBe('/history');
    expect(await page.getByText(t(en, 'errors.pageLoad')).count()).toBe(0);
  });
});
