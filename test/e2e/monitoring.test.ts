/**
 * The monitoring journey against the real service: heartbeats posted through the real agent
 * endpoint show as each server's values with sparklines, drift and agent version; sorting by CPU
 * works both ways (header click on a laptop, the "Sort by" control on a phone) and lives in the
 * URL; a threshold and a notify switch are changed with the service's answer shown on the field;
 * an agent token and its one-liner are generated, and the token works. axe light and dark, and
 * once in zh-CN.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading, pathOf } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

async function monitoredServer(token: string, name: string): Promise<{ id: number; agent: string }> {
  const id = await e2e.createKeyServer(token, { name });
  const tok = await e2e.svc.api<{ agent_token: string }>('POST', `/api/servers/${id}/agent-token`, undefined, { token });
  expect(tok.status).toBe(200);
  return { id, agent: tok.body.agent_token };
}

async function heartbeat(agent: string, r: { cpu?: number; mem?: number; disk?: number; driftS?: number }): Promise<number> {
  const res = await fetch(`${e2e.svc.url}/api/agent/heartbeat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cpu: r.cpu ?? 10, mem: r.mem ?? 20, disk: r.disk ?? 30, load: 0.25, ts: Math.floor(Date.now() / 1000) + (r.driftS ?? 0), version: '1.1.0' }),
  });
  return res.status;
}

/** The order in which these servers' rows appear in the table. */
async function rowOrder(page: Page, names: string[]): Promise<string[]> {
  const all = await page.getByRole('table', { name: t(en, 'monitoring.table') }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-server') ?? ''));
  return all.filter((n) => names.includes(n));
}

describe.each(WIDTHS)('monitoring at %s', (viewport) => {
  it('shows readings with sparklines, sorts, edits a threshold and a switch, and generates an agent token', async () => {
    const token = await e2e.svc.login();
    const suffix = `${viewport}-${Date.now().toString(36)}`;
    const low = await monitoredServer(token, `mon-low-${suffix}`);
    const high = await monitoredServer(token, `mon-high-${suffix}`);
    for (const cpu of [20, 30, 40]) expect(await heartbeat(low.agent, { cpu })).toBe(200);
    for (const cpu of [50, 60, 70]) expect(await heartbeat(high.agent, { cpu, driftS: 5 })).toBe(200);
    const names = [`mon-low-${suffix}`, `mon-high-${suffix}`];

    const cp = await e2e.signedIn(viewport, { next: '/monitoring' });
    const { page } = cp;
    // The deliberately refused threshold below: the browser logs the 400 it was answered.
    cp.allow(/status of 400 .*\/api\/settings\/cpu_alert_threshold/);
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'monitoring.title'));
    const table = page.getByRole('table', { name: t(en, 'monitoring.table') });
    const lowRow = table.locator(`tr[data-server="${names[0]}"]`);
    const highRow = table.locator(`tr[data-server="${names[1]}"]`);
    await lowRow.waitFor({ timeout: 15_000 });
    // Last values, drift, version and a sparkline per metric, described in words.
    expect(await lowRow.textContent()).toContain('40%');
    expect(await highRow.textContent()).toContain('70%');
    // The agent's clock is 5 s ahead: the service truncates ts − its own clock at arrival, so a
    // post that takes a second or two on a loaded machine shows 4 or 3.
    expect(await highRow.textContent()).toMatch(new RegExp(t(en, 'monitoring.driftSeconds', { value: '\\+[345]' })));
    expect(await lowRow.textContent()).toContain('1.1.0');
    const spark = lowRow.getByRole('img', { name: t(en, 'monitoring.trend', { metric: t(en, 'monitoring.cpu'), count: 3, first: '20%', last: '40%' }) });
    expect(await spark.count()).toBe(1);
    expect(await spark.locator('.recharts-area').count()).toBe(1);
    await expectAccessible(page);

    // Sorting by CPU, highest first, then lowest first; the sort is in the URL.
    if (viewport === 'desktop') {
      const header = page.getByRole('button', { name: t(en, 'monitoring.sortColumn', { column: t(en, 'monitoring.cpu') }) });
      await header.click();
      await expect.poll(() => pathOf(page)).toBe('/monitoring?sort=cpu&order=desc');
      await expect.poll(() => page.getByRole('columnheader', { name: t(en, 'monitoring.cpu') }).getAttribute('aria-sort')).toBe('descending');
      await expect.poll(() => rowOrder(page, names)).toEqual([names[1], names[0]]);
      await header.click();
      await expect.poll(() => pathOf(page)).toBe('/monitoring?sort=cpu');
    } else {
      await page.getByRole('combobox', { name: t(en, 'monitoring.sortBy'), exact: true }).click();
      await page.getByRole('option', { name: t(en, 'monitoring.cpu'), exact: true }).click();
      await expect.poll(() => pathOf(page)).toBe('/monitoring?sort=cpu&order=desc');
      await expect.poll(() => page.getByRole('columnheader', { name: t(en, 'monitoring.cpu') }).getAttribute('aria-sort')).toBe('descending');
      await expect.poll(() => rowOrder(page, names)).toEqual([names[1], names[0]]);
      await page.getByRole('button', { name: `${t(en, 'monitoring.sortOrder')}: ${t(en, 'monitoring.descending')}` }).click();
      await expect.poll(() => pathOf(page)).toBe('/monitoring?sort=cpu');
    }
    await expect.poll(() => rowOrder(page, names)).toEqual([names[0], names[1]]);
    await expect.poll(() => page.getByRole('columnheader', { name: t(en, 'monitoring.cpu') }).getAttribute('aria-sort')).toBe('ascending');

    // The service filters and counts: one server, its total 1, the filter in the URL.
    const filter = page.getByRole('textbox', { name: t(en, 'monitoring.filter') });
    await filter.fill(names[1]);
    await expect.poll(() => table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-server')))).toEqual([names[1]]);
    await page.getByText(t(en, 'common.total', { count: 1 })).waitFor();
    expect(pathOf(page)).toContain(`q=${names[1]}`);
    await filter.fill('');
    await expect.poll(() => rowOrder(page, names)).toEqual([names[0], names[1]]);

    // A threshold out of range: the service's refusal shows on the field; then a valid one is saved.
    const field = page.getByRole('textbox', { name: t(en, 'monitoring.settings.cpu_alert_threshold') });
    const save = page.getByRole('button', { name: t(en, 'monitoring.settings.saveField', { field: t(en, 'monitoring.settings.cpu_alert_threshold') }) });
    await field.fill('150');
    await save.click();
    const refused = await e2e.svc.api<{ detail: string }>('PUT', '/api/settings/cpu_alert_threshold', { value: '150' }, { token });
    expect(refused.status).toBe(400);
    await page.getByText(t(en, 'errors.codes.setting_invalid_value', { detail: refused.body.detail })).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('35');
    await save.click();
    await page.getByText(t(en, 'monitoring.settings.saved', { value: '35' })).waitFor();
    expect((await e2e.svc.api<{ value: string }>('GET', '/api/settings/cpu_alert_threshold', undefined, { token })).body.value).toBe('35');
    // The new threshold marks the 40 % reading at once.
    await lowRow.getByRole('img', { name: t(en, 'monitoring.overThreshold', { threshold: 35 }) }).waitFor();

    // A notify switch: off, with the stored value confirmed under it.
    const recoveries = page.getByRole('switch', { name: t(en, 'monitoring.settings.notify_recovery') });
    const was = await recoveries.isChecked();
    await recoveries.click({ force: true });
    const word = t(en, `monitoring.settings.${was ? 'off' : 'on'}`);
    await page.getByText(t(en, 'monitoring.settings.saved', { value: word })).waitFor();
    expect((await e2e.svc.api<{ value: string }>('GET', '/api/settings/notify_recovery', undefined, { token })).body.value).toBe(was ? 'false' : 'true');
    await expectAccessible(page);

    // An agent token and its one-liner for a server; the token really authenticates heartbeats.
    const serverPick = page.getByRole('combobox', { name: t(en, 'monitoring.install.server'), exact: true });
    await serverPick.click();
    await serverPick.pressSequentially(names[0]);
    await page.getByRole('option', { name: new RegExp(`^${names[0]} `) }).click();
    await page.getByRole('button', { name: t(en, 'servers.agentGenerate') }).click();
    const command = page.getByText(/FLEET_AGENT_TOKEN=/);
    await command.waitFor();
    const text = (await command.textContent()) ?? '';
    expect(text).toContain(`${e2e.svc.url}/api/agent/install.sh`);
    const fresh = /FLEET_AGENT_TOKEN='([A-Za-z0-9_-]+)'/.exec(text)?.[1];
    expect(fresh).toBeTruthy();
    expect(await heartbeat(fresh!, { cpu: 12 })).toBe(200);
    expect(await heartbeat(low.agent, { cpu: 12 })).toBe(401);
    await page.getByRole('button', { name: t(en, 'monitoring.install.run', { name: names[0] }) }).waitFor();
    await expectAccessible(page);

    if (viewport === 'desktop') {
      await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
      await expectAccessible(page);
    }
    // Put the threshold back for whoever runs next.
    await e2e.svc.api('PUT', '/api/settings/cpu_alert_threshold', { value: '90' }, { token });
  });
});

describe('monitoring in zh-CN', () => {
  it('shows the table and the settings in Chinese', async () => {
    const { page, context } = await e2e.signedIn('phone');
    await context.addInitScript(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/monitoring');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'monitoring.title'));
    await page.getByRole('table', { name: t(zhCN, 'monitoring.table') }).waitFor();
    await page.getByRole('switch', { name: t(zhCN, 'monitoring.settings.notify_recovery') }).waitFor();
    await expectAccessible(page);
  });
});
