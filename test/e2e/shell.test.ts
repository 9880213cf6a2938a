/**
 * The frame around every page: language and colour scheme (each kept across a reload), every
 * navigation item opening its page (placeholders say so), the live connection's indicator.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickNav, expectAccessible, mainHeading, pathOf } from './support/browser.js';
import { en, NAV_ITEMS, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

const navLabel = (key: string) => t(en, `nav.${key}`);
const colorScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

async function chooseLanguage(page: Page, buttonName: string, item: string): Promise<void> {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe.each(WIDTHS)('shell at %s', (viewport) => {
  it('switches to 中文 and back; the choice survives a reload', async () => {
    const { page } = await e2e.signedIn(viewport);
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));

    await chooseLanguage(page, t(en, 'header.language'), '简体中文');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'dashboard.title'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await expect.poll(() => page.getByRole('button', { name: t(zhCN, 'header.account') }).count()).toBe(1);
    await expectAccessible(page);

    await page.reload();
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'dashboard.title'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');

    await chooseLanguage(page, t(zhCN, 'header.language'), 'English');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));
    await page.reload();
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await expectAccessible(page);
  });

  it('switches to dark and keeps it after a reload', async () => {
    const { page } = await e2e.signedIn(viewport);
    expect(await colorScheme(page)).toBe('light');
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
    await expect.poll(() => colorScheme(page)).toBe('dark');
    // The button now offers the way back.
    await expect.poll(() => page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.light')}` }).count()).toBe(1);
    await expectAccessible(page);

    await page.reload();
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'dashboard.title'));
    expect(await colorScheme(page)).toBe('dark');
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.light')}` }).click();
    await expect.poll(() => colorScheme(page)).toBe('light');
  });

  it('opens every page from the navigation, each its own', async () => {
    const { page } = await e2e.signedIn(viewport);
    let previous = await mainHeading(page).textContent();
    for (const item of NAV_ITEMS) {
      await clickNav(page, navLabel(item.key));
      await page.waitForURL((u) => u.pathname === item.path);
      expect(pathOf(page)).toBe(item.path);
      // Each page loads as its own chunk: the old heading stays until the new page is there.
      const heading = mainHeading(page);
      if (item.path !== '/') await expect.poll(() => heading.textContent(), { message: item.path }).not.toBe(previous);
      previous = await heading.textContent();
      expect(previous?.trim()).not.toBe('');
      // The link of the page shown is marked as the current one.
      const current = page.getByRole('navigation').getByRole('link', { name: navLabel(item.key), exact: true });
      await expect.poll(() => current.getAttribute('aria-current'), { message: item.path }).toBe('page');
      await expectAccessible(page);
    }
  });

  it('says the live connection is up', async () => {
    const { page } = await e2e.signedIn(viewport);
    const live = page.getByRole('status').filter({ hasText: /^Live: / });
    await expect.poll(() => live.textContent(), { timeout: 15_000 }).toBe(t(en, 'header.connection.connected'));
    await expectAccessible(page);
  });

  it('an alert arrives live: a toast, and the dashboard shows it without a reload', async () => {
    const token = await e2e.svc.login();
    const name = `hot-${viewport}-${process.pid}`;
    const created = await e2e.svc.api<{ id: number }>('POST', '/api/servers', { name, host: '192.0.2.10', username: 'root' }, { token });
    expect(created.status).toBe(201);
    const agent = await e2e.svc.api<{ agent_token: string }>('POST', `/api/servers/${created.body.id}/agent-token`, undefined, { token });
    const { page } = await e2e.signedIn(viewport);
    const live = page.getByRole('status').filter({ hasText: /^Live: / });
    await expect.poll(() => live.textContent(), { timeout: 15_000 }).toBe(t(en, 'header.connection.connected'));
    const beat = await e2e.svc.api(
      'POST',
      '/api/agent/heartbeat',
      { cpu: 97, mem: 20, disk: 30, ts: Math.floor(Date.now() / 1000) },
      { token: agent.body.agent_token },
    );
    expect(beat.status).toBe(200);
    await page.getByText(`Active: ${name}`).waitFor({ timeout: 15_000 });
    // The toast lives outside the page's main region; the dashboard's active alerts inside it.
    await page.getByRole('main').getByText(name, { exact: true }).waitFor({ timeout: 15_000 });
    await expectAccessible(page);
  });
});
