/**
 * The audit log in the browser against the real service: filter by action and administrator,
 * page through, open one entry's detail (its own URL), export the CSV of exactly the filtered
 * entries. Light and dark, at both widths, and once in Chinese.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading, pathOf } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

const colorScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
async function toggleScheme(page: Page, to: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, `header.${to}`)}` }).click();
  await expect.poll(() => colorScheme(page)).toBe(to);
}

/** 55 `create_preset` entries by an administrator of this width alone: more than one page of 50. */
async function seed(username: string): Promise<number> {
  const adminToken = await e2e.svc.login();
  expect((await e2e.svc.api('POST', '/api/admins', { username, password: 'audit-password-1' }, { token: adminToken })).status).toBe(201);
  const token = await e2e.svc.login(username, 'audit-password-1');
  const n = 55;
  for (let i = 0; i < n; i++) {
    const res = await e2e.svc.api('POST', '/api/presets', { name: `${username}-${i}`, encrypted_pw: 'x' }, { token });
    expect(res.status).toBe(201);
  }
  return n;
}

describe.each(WIDTHS)('audit log at %s', (viewport) => {
  it('filters by action and administrator, pages, opens an entry and exports the CSV of the filter', async () => {
    const username = `auditor-${viewport}`;
    const n = await seed(username);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/audit');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'audit.title'));
    await page.getByRole('table').waitFor();
    await expectAccessible(page);
    await toggleScheme(page, 'dark');
    await expectAccessible(page);
    await toggleScheme(page, 'light');

    // The action, chosen by its translated name.
    const action = page.getByLabel(t(en, 'audit.action'), { exact: true }).and(page.locator('input'));
    await action.click();
    await action.fill(t(en, 'audit.actions.create_preset'));
    await page.getByRole('option', { name: t(en, 'audit.actions.create_preset'), exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('create_preset');
    await page.getByRole('textbox', { name: t(en, 'audit.admin'), exact: true }).fill(username);
    await expect.poll(() => new URL(page.url()).searchParams.get('admin')).toBe(username);
    await page.getByText(t(en, 'audit.entries', { count: n }), { exact: true }).waitFor();
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(50 + 1);
    await expectAccessible(page);

    // Page 2 holds the rest.
    await page.getByRole('navigation', { name: t(en, 'audit.pagination') }).getByRole('button', { name: t(en, 'common.page', { page: 2, pages: 2 }) }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect.poll(() => rows.count()).toBe(n - 50 + 1);

    // One entry's detail, at its own URL, over the list.
    const link = rows.nth(1).getByRole('link');
    const id = /^\/audit\/(\d+)/.exec((await link.getAttribute('href')) ?? '')?.[1] ?? '';
    expect(id).toMatch(/^\d+$/);
    await link.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/audit/${id}`);
    const drawer = page.getByRole('dialog', { name: t(en, 'audit.entryTitle', { id }) });
    await drawer.getByRole('cell', { name: 'create_preset', exact: true }).waitFor();
    await drawer.getByRole('cell', { name: username, exact: true }).waitFor();
    await drawer.getByText(/^name=auditor-/).waitFor();
    await expectAccessible(page);
    await page.reload();
    await drawer.getByRole('cell', { name: 'create_preset', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe(`/audit?action=create_preset&admin=${username}&page=2`);

    // The CSV: exactly the filtered entries, newest first.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: t(en, 'audit.export') }).click();
    const file = await (await download).path();
    const text = fs.readFileSync(file, 'utf8').replace(/^\ufeff/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('id,created_at,admin_username,action,target_type,target_id,target_name,detail,ip_address');
    expect(lines).toHaveLength(n + 1);
    expect(lines.slice(1).every((l) => l.split(',')[2] === username && l.split(',')[3] === 'create_preset')).toBe(true);
    const api = await e2e.svc.api<{ items: Array<{ id: number }> }>(
      'GET', `/api/audit?action=create_preset&admin_username=${username}&limit=500`, undefined, { token: await e2e.svc.login() },
    );
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(api.body.items.map((i) => i.id));
  });

  it('reads in Chinese', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/audit?action=create_preset');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'audit.title'));
    await page.getByRole('cell', { name: t(zhCN, 'audit.actions.create_preset') }).first().waitFor();
    await expectAccessible(page);
  });
});
