/**
 * Schedules in the browser against the real service (its scheduler loop on) and the real sshd:
 * create a cron push schedule and watch the next five runs appear as the expression is typed (the
 * first is the service's next_run), see a bad expression's error on the field, create a one-shot
 * script schedule with the date-time picker (Asia/Shanghai), disable and enable, edit, delete; a
 * one-shot a few seconds ahead fires on the sshd and its run shows in the schedule's history.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-sched-'));
const e2e = setupE2E({ env: { STAGING_PREFIX: `${stagingRoot}/up_` } });
const srcDir = path.join(stagingRoot, 'up_sched');
const targetDir = () => path.join(e2e.sshd.homeDir, `e2e-sched-${process.pid}-${path.basename(stagingRoot)}`);
/** Two cores shared by several suites: a save and its navigation can take seconds. */
const SLOW = { timeout: 15_000 };
let token = '';
let server = { id: 0, name: '' };

interface Schedule {
  id: number;
  name: string;
  enabled: boolean;
  next_run: string | null;
  fire_at: string | null;
  cron_expr: string | null;
  schedule_type: string;
  script_content: string | null;
}

beforeAll(async () => {
  fs.mkdirSync(srcDir, { recursive: true });
  fs.writeFileSync(path.join(srcDir, 'hello.txt'), 'scheduled\n');
  token = await e2e.svc.login();
  const s = e2e.sshd;
  const name = `sched-${process.pid}`;
  const res = await e2e.svc.api<{ id: number }>(
    'POST',
    '/api/servers',
    { name, host: s.host, port: s.port, username: s.username, auth_type: 'key', private_key: s.privateKey, target_path: targetDir() },
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  server = { id: res.body.id, name };
});
afterAll(() => {
  fs.rmSync(stagingRoot, { recursive: true, force: true });
  fs.rmSync(targetDir(), { recursive: true, force: true });
});

const schedules = async () => (await e2e.svc.api<Schedule[]>('GET', '/api/schedules', undefined, { token })).body;
const byName = async (name: string) => (await schedules()).find((s) => s.name === name);
const idOf = (page: Page) => Number(new URL(page.url()).pathname.split('/')[2]);

async function openNew(page: Page): Promise<void> {
  await page.goto('/schedules');
  await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(en, 'schedules.title'));
  await page.getByRole('link', { name: t(en, 'schedules.add') }).first().click();
  await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(en, 'schedules.form.newTitle'));
}

/** A SegmentedControl option (a radio whose input is visually hidden: its label takes the click). */
async function choose(page: Page, label: string): Promise<void> {
  await page.locator('label', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }).click();
}

async function pickServer(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: server.name, exact: true }).check();
}

describe.each(WIDTHS)('schedules at %s', (viewport) => {
  it('a cron push schedule previews its next five runs while typing; a bad expression shows its error on the field', async () => {
    const { page } = await e2e.signedIn(viewport);
    await openNew(page);
    const name = `nightly ${viewport}`;
    await page.getByRole('textbox', { name: t(en, 'schedules.name') }).fill(name);
    const cron = page.getByRole('textbox', { name: t(en, 'schedules.form.cronExpr') });

    await cron.pressSequentially('61 * * * *');
    await expect.poll(() => cron.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByText(t(en, 'schedules.form.cronSyntax')).count()).toBe(1);
    await cron.fill('');
    await cron.pressSequentially('0 9 * *');
    await expect.poll(() => page.getByText(t(en, 'schedules.form.cronFields')).count()).toBe(1);
    await cron.pressSequentially(' *');
    const preview = page.getByRole('list', { name: t(en, 'schedules.form.nextFive') });
    await expect.poll(() => preview.getByRole('listitem').count()).toBe(5);
    expect(await cron.getAttribute('aria-invalid')).not.toBe('true');
    const runs = await preview.getByRole('listitem').evaluateAll((els) => els.map((e) => e.getAttribute('data-run')));
    // 09:00 in Shanghai is 01:00 UTC, one day apart.
    expect(runs.every((r) => r?.endsWith('T01:00:00.000Z'))).toBe(true);
    expect(Date.parse(runs[1]!) - Date.parse(runs[0]!)).toBe(86_400_000);
    expect(await preview.getByRole('listitem').first().textContent()).toContain('(Asia/Shanghai)');
    await expectAccessible(page);

    await page.getByRole('radio', { name: srcDir }).check();
    await pickServer(page);
    await page.getByRole('button', { name: t(en, 'schedules.form.create') }).click();
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(name);
    const saved = await byName(name);
    expect(saved).toMatchObject({ cron_expr: '0 9 * * *', enabled: true, schedule_type: 'push' });
    // The browser's preview is the service's answer.
    expect(saved?.next_run).toBe(runs[0]);
    await expect.poll(() => page.getByText(t(en, 'schedules.runs.empty')).count()).toBe(1);
    await expectAccessible(page);

    await page.getByRole('link', { name: t(en, 'schedules.backToList') }).click();
    await expect.poll(() => page.getByRole('link', { name, exact: true }).count()).toBe(1);
    await expectAccessible(page);
  });

  it('a one-shot script schedule with the date-time picker; disable, enable, edit, delete', async () => {
    const { page } = await e2e.signedIn(viewport);
    await openNew(page);
    const name = `once ${viewport}`;
    await page.getByRole('textbox', { name: t(en, 'schedules.name') }).fill(name);
    await choose(page, t(en, 'schedules.types.script'));
    await choose(page, t(en, 'schedules.modes.once'));
    await choose(page, t(en, 'schedules.form.inlineScript'));
    await page.getByRole('textbox', { name: t(en, 'schedules.form.content') }).fill('echo scheduled');

    await page.getByRole('button', { name: t(en, 'schedules.form.fireAt') }).click();
    await page.getByRole('button', { name: t(en, 'schedules.picker.nextMonth') }).click();
    await page.getByRole('button', { name: /^15 / }).click();
    const hours = page.getByRole('spinbutton', { name: t(en, 'schedules.picker.hours') });
    await hours.click();
    await hours.pressSequentially('10');
    await page.getByRole('spinbutton', { name: t(en, 'schedules.picker.minutes') }).pressSequentially('30');
    await expectAccessible(page);
    await page.getByRole('button', { name: t(en, 'schedules.picker.confirm') }).click();
    await pickServer(page);
    await page.getByRole('button', { name: t(en, 'schedules.form.create') }).click();
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(name);
    const id = idOf(page);
    const saved = await byName(name);
    // 10:30 on the 15th, Asia/Shanghai: 02:30 UTC.
    expect(saved?.fire_at).toMatch(/-15T02:30:00\.000Z$/);
    expect(saved?.next_run).toBe(saved?.fire_at);
    expect(await page.getByText(/\(Asia\/Shanghai\)/).count()).toBeGreaterThan(0);

    const toggle = page.getByRole('switch', { name: t(en, 'schedules.enabledOf', { name }) });
    await toggle.click({ force: true });
    await expect.poll(async () => (await byName(name))?.enabled).toBe(false);
    await expect.poll(() => page.getByText(t(en, 'schedules.noNextRun')).count()).toBe(1);
    await toggle.click({ force: true });
    await expect.poll(async () => (await byName(name))?.enabled).toBe(true);

    await page.getByRole('link', { name: t(en, 'common.edit') }).click();
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(en, 'schedules.form.editTitle'));
    const content = page.getByRole('textbox', { name: t(en, 'schedules.form.content') });
    expect(await content.inputValue()).toBe('echo scheduled');
    await page.getByRole('textbox', { name: t(en, 'schedules.name') }).fill(`${name} edited`);
    await content.fill('echo edited');
    await page.getByRole('button', { name: t(en, 'schedules.form.save') }).click();
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(`${name} edited`);
    const edited = (await schedules()).find((s) => s.id === id);
    expect(edited).toMatchObject({ name: `${name} edited`, script_content: 'echo edited', fire_at: saved?.fire_at });

    await page.getByRole('button', { name: t(en, 'common.delete') }).click();
    await page.getByRole('button', { name: t(en, 'schedules.deleteOf', { name: `${name} edited` }) }).click();
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(en, 'schedules.title'));
    expect((await schedules()).some((s) => s.id === id)).toBe(false);
  });

  it('a one-shot a few seconds ahead fires on the server and shows in the run history', async () => {
    const name = `soon ${viewport}`;
    const fireAt = new Date(Date.now() + 4000).toISOString();
    const res = await e2e.svc.api<Schedule>(
      'POST',
      '/api/schedules',
      { name, source_path: srcDir, server_ids: [server.id], run_mode: 'once', fire_at: fireAt },
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { page } = await e2e.signedIn(viewport);
    await page.goto(`/schedules/${res.body.id}`);
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(name);
    const history = page.getByRole('table', { name: t(en, 'schedules.historyOf', { name }) });
    await expect.poll(() => history.getByText(t(en, 'status.completed')).count(), { timeout: 30_000 }).toBe(1);
    expect(await history.getByText(t(en, 'schedules.runs.counts', { ok: 1, total: 1 })).count()).toBe(1);
    expect(fs.readFileSync(path.join(targetDir(), 'hello.txt'), 'utf8')).toBe('scheduled\n');
    // The one-shot disabled itself; the list shows the result.
    await expect.poll(() => page.getByText(t(en, 'schedules.noNextRun')).count()).toBe(1);
    await expectAccessible(page);
    await history.getByRole('link', { name: new RegExp(t(en, 'schedules.runs.openBatch')) }).click();
    await expect.poll(() => new URL(page.url()).pathname.startsWith('/history/')).toBe(true);
  });
});

describe('schedules in dark and in zh-CN', () => {
  it('the list and a schedule page pass axe in dark; the page reads in Chinese', async () => {
    const { page } = await e2e.signedIn('desktop');
    await page.goto('/schedules');
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(en, 'schedules.title'));
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await expectAccessible(page);
    await page.getByRole('link', { name: t(en, 'schedules.add') }).first().click();
    await expect.poll(() => page.getByRole('list', { name: t(en, 'schedules.form.nextFive') }).count()).toBe(0);
    await page.getByRole('textbox', { name: t(en, 'schedules.form.cronExpr') }).fill('*/5 * * * *');
    await expect.poll(() => page.getByRole('list', { name: t(en, 'schedules.form.nextFive') }).getByRole('listitem').count()).toBe(5);
    await expectAccessible(page);

    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/schedules');
    await expect.poll(() => mainHeading(page).textContent(), SLOW).toBe(t(zhCN, 'schedules.title'));
    await expect.poll(() => page.getByText(t(zhCN, 'schedules.lastResult')).count()).toBeGreaterThan(0);
    await expectAccessible(page);
  });
});
