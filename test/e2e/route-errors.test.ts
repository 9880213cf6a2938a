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

  it('after an upgrade (the page’s chunk gone, another build served) the page reloads once, never in a loop', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));
    cp.allow(/404|Failed to fetch dynamically imported module|Failed to load resource/);
    // What an upgraded service answers: the old build's History chunk is 404, and `/` is the new
    // index.html with another build id.
    await page.route(/\/assets\/HistoryPage-[^/]+\.js$/, (r) => r.fulfill({ status: 404, body: 'Not found' }));
    let probes = 0;
    await page.route(`${e2e.svc.url}/`, async (r) => {
      probes++;
      const res = await r.fetch();
      const html = (await res.text()).replace(/name="fleet-build" content="[^"]+"/, 'name="fleet-build" content="9.9.9+upgraded"');
      await r.fulfill({ response: res, body: html });
    });
    let loads = 0;
    page.on('load', () => loads++);

    await clickNav(page, t(en, 'nav.history'));
    // One reload by itself; the reloaded page (still without the chunk here) shows the error and stays.
    await expect.poll(() => loads, { timeout: 20_000 }).toBe(1);
    await page.getByRole('main').getByRole('alert').filter({ hasText: t(en, 'errors.pageLoad') }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('fleet.reloadedForBuild'))).toBe('9.9.9+upgraded');
    // The reloaded page looked at the served build too, and left it at that.
    await expect.poll(() => probes, { timeout: 20_000 }).toBe(2);
    await page.getByRole('main').getByRole('alert').filter({ hasText: t(en, 'errors.pageLoad') }).waitFor();
    expect(loads).toBe(1);
    expect(pathOf(page)).toBe('/history');
  });
});
