/**
 * The alerts journey against the real service: heartbeats posted through the real agent endpoint
 * (with the server's agent token) open an alert that appears in "Active" without a reload; the
 * history is filtered by type, server and Asia/Shanghai day (all in the URL); the statistics draw
 * their charts; the CSV export downloads exactly the filtered rows. axe in light and dark, and
 * the page once in zh-CN.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading, pathOf } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';
import { parseCsv } from '../helpers/csv.js';

const e2e = setupE2E();

async function monitoredServer(token: string, name: string): Promise<{ id: number; agent: string }> {
  const id = await e2e.createKeyServer(token, { name });
  const tok = await e2e.svc.api<{ agent_token: string }>('POST', `/api/servers/${id}/agent-token`, undefined, { token });
  expect(tok.status).toBe(200);
  return { id, agent: tok.body.agent_token };
}

/** One heartbeat through the agent's own endpoint, authenticated by the agent token. */
async function heartbeat(agent: string, r: { cpu?: number; mem?: number; disk?: number }): Promise<void> {
  const res = await fetch(`${e2e.svc.url}/api/agent/heartbeat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cpu: 10, mem: 20, disk: 30, ts: Math.floor(Date.now() / 1000), version: '1.1.0', ...r }),
  });
  expect(res.status, await res.text()).toBe(200);
}

const shanghaiToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

async function pick(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function darkScheme(page: Page): Promise<void> {
  await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
}

describe.each(WIDTHS)('alerts at %s', (viewport) => {
  const view = (page: Page, key: string) => page.getByRole('navigation', { name: t(en, 'alerts.tabs.label') }).getByRole('link', { name: t(en, key) });

  it('shows a new alert live, filters the history, draws the statistics and exports the filtered CSV', async () => {
    const token = await e2e.svc.login();
    const name = `alert-${viewport}-${Date.now().toString(36)}`;
    const srv = await monitoredServer(token, name);
    await heartbeat(srv.agent, { cpu: 5 });

    const { page } = await e2e.signedIn(viewport, { next: '/alerts' });
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'alerts.title'));
    const active = page.getByRole('table', { name: t(en, 'alerts.active.heading') });
    await expectAccessible(page);

    // The agent reports 97 % CPU: the alert shows up without a reload.
    await heartbeat(srv.agent, { cpu: 97 });
    const row = active.getByRole('row').filter({ hasText: name });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain(t(en, 'enums.alertType.cpu'));
    // Recovery, a second CPU alert and a memory alert, for the history below.
    await heartbeat(srv.agent, { cpu: 5 });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await heartbeat(srv.agent, { cpu: 96, mem: 99 });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(2);
    await expectAccessible(page);

    // History: by type, then also by server and by today's Asia/Shanghai day.
    await view(page, 'alerts.tabs.history').click();
    const table = page.getByRole('table', { name: t(en, 'alerts.history.table') });
    await table.waitFor();
    await pick(page, t(en, 'alerts.type'), t(en, 'enums.alertType.cpu'));
    await page.getByRole('combobox', { name: t(en, 'alerts.server'), exact: true }).fill(name);
    await page.getByRole('option', { name, exact: true }).click();
    const today = shanghaiToday();
    await page.getByLabel(t(en, 'alerts.history.dateFrom')).fill(today);
    await expect.poll(() => pathOf(page)).toContain(`from=${today}`);
    await page.getByLabel(t(en, 'alerts.history.dateTo')).fill(today);
    await expect.poll(() => pathOf(page)).toBe(`/alerts/history?type=cpu&server=${srv.id}&from=${today}&to=${today}`);
    const body = table.locator('tbody tr');
    // cpu alert, its recovery, the second cpu alert (the memory alert is filtered out).
    await expect.poll(() => body.count(), { timeout: 10_000 }).toBe(3);
    expect(await page.getByText(t(en, 'common.total', { count: 3 })).count()).toBe(1);
    for (const tr of await body.all()) expect(await tr.textContent()).toContain(name);
    expect(await table.textContent()).not.toContain(t(en, 'enums.alertType.mem'));
    await pick(page, t(en, 'alerts.history.status'), t(en, 'alerts.history.onlyRecoveries'));
    await expect.poll(() => body.count()).toBe(1);
    await expectAccessible(page);

    // A reload keeps the filters (they are the URL).
    await page.reload();
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await pick(page, t(en, 'alerts.history.status'), t(en, 'alerts.history.anyStatus'));
    await expect.poll(() => body.count()).toBe(3);

    // The export holds exactly the filtered rows, formula-safe and in list order.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: t(en, 'alerts.history.export') }).click()]);
    expect(download.suggestedFilename()).toMatch(/^alert-history-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const rows = parseCsv(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['id', 'server_id', 'server_name', 'alert_type', 'value', 'is_recovery', 'created_at', 'created_at_shanghai']);
    const data = rows.slice(1);
    expect(data).toHaveLength(3);
    for (const r of data) {
      expect(r[1]).toBe(String(srv.id));
      expect(r[2]).toBe(name);
      expect(r[3]).toBe('cpu');
      expect(r[7].slice(0, 10)).toBe(today);
    }
    expect(data.map((r) => r[5])).toEqual(['false', 'true', 'false']);
    expect(data.map((r) => r[4])).toEqual(['96', '5', '97']);

    // Statistics: both charts are drawn, the top-server chart names this server.
    await view(page, 'alerts.tabs.stats').click();
    await expect.poll(() => page.locator('[data-testid="alerts-per-day"] .recharts-bar-rectangle').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid="alerts-top-servers"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="alerts-top-servers"]').textContent()).toContain(name);
    await page.getByText(t(en, 'alerts.stats.lastDays', { count: 30 }), { exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe('/alerts/stats?days=30');
    await expectAccessible(page);
    await darkScheme(page);
    await expectAccessible(page);
    await view(page, 'alerts.tabs.active').click();
    await active.waitFor();
    await expectAccessible(page);
  });
});

describe('alerts in zh-CN', () => {
  it('shows the page and its history filters in Chinese', async () => {
    const { page, context } = await e2e.signedIn('desktop');
    await context.addInitScript(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/alerts/history?status=active');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'alerts.title'));
    await page.getByRole('textbox', { name: t(zhCN, 'alerts.history.dateFrom'), exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: t(zhCN, 'alerts.history.status'), exact: true }).inputValue()).toBe(t(zhCN, 'alerts.history.onlyAlerts'));
    await expectAccessible(page);
    await page.goto('/alerts/stats');
    await page.getByText(t(zhCN, 'alerts.stats.perDay')).waitFor();
    await expectAccessible(page);
  });
});
