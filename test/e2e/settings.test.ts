/**
 * Settings: a value changed and saved on its own; a value out of range refused in the browser
 * before anything is sent (and by the service when the browser is bypassed); the API key revealed
 * only after the password is typed again; light and dark, and once in Chinese.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

/** The machine is shared: a page may take a few seconds to answer. */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

interface Descriptor {
  key: string;
  schema: { minimum?: number; maximum?: number };
}

async function rule(key: string): Promise<Descriptor['schema']> {
  const token = await e2e.svc.login();
  const res = await e2e.svc.api<{ settings: Descriptor[] }>('GET', '/api/settings/schema', undefined, { token });
  const d = res.body.settings.find((s) => s.key === key);
  if (!d) throw new Error(`no rule for ${key}`);
  return d.schema;
}

async function stored(key: string): Promise<string | null> {
  const token = await e2e.svc.login();
  return (await e2e.svc.api<{ value: string | null }>('GET', `/api/settings/${key}`, undefined, { token })).body.value;
}

/** PUTs of one key the page sends from now on. */
function watchPuts(page: Page, key: string): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname === `/api/settings/${key}`) seen.push(r.postData() ?? '');
  });
  return seen;
}

describe.each(WIDTHS)('settings at %s', (viewport) => {
  it('saves a value; one out of range is refused in the browser, and by the service when sent anyway', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/settings');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'settings.title'));
    const label = t(en, 'settings.keys.heartbeat_timeout');
    const field = page.getByRole('textbox', { name: label });
    const save = page.getByRole('button', { name: t(en, 'settings.saveField', { name: label }) });
    const { minimum, maximum } = await rule('heartbeat_timeout');
    const puts = watchPuts(page, 'heartbeat_timeout');

    await field.fill(String((maximum ?? 0) + 1));
    const problem = t(en, 'settings.problems.range', { min: minimum ?? 0, max: maximum ?? 0 });
    await eventually(() => page.getByText(problem).count()).toBe(1);
    await save.click();
    await page.waitForTimeout(300);
    expect(puts).toEqual([]);

    // The browser's check bypassed: the service refuses the same value itself.
    const token = await e2e.svc.login();
    const direct = await e2e.svc.api<{ code: string }>('PUT', '/api/settings/heartbeat_timeout', { value: String((maximum ?? 0) + 1) }, { token });
    expect(direct.status).toBe(400);
    expect(direct.body.code).toBe('setting_invalid_value');

    const good = viewport === 'phone' ? '121' : '120';
    await field.fill(good);
    await eventually(() => page.getByText(problem).count()).toBe(0);
    await save.click();
    await eventually(() => stored('heartbeat_timeout')).toBe(good);
    expect(puts).toHaveLength(1);
    await eventually(() => page.getByRole('status').filter({ hasText: t(en, 'settings.saved') }).count()).toBe(1);
    await expectAccessible(page);
  });

  it('reveals the API key only after the password is typed again', async () => {
    const cp = await e2e.signedIn(viewport, { colorScheme: 'dark' });
    const { page } = cp;
    // The wrong password below is answered 400 on purpose.
    cp.allow(/status of 400 .*\/api\/settings\/api-key\/reveal/);
    await page.goto('/settings');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'settings.title'));
    const name = t(en, 'settings.keys.api_key');
    await page.getByRole('button', { name: t(en, 'settings.reveal.button', { name }) }).click();
    const dialog = page.getByRole('dialog', { name: t(en, 'settings.reveal.title', { name }) });
    await dialog.getByLabel(t(en, 'settings.reveal.password')).fill('not-the-password');
    await dialog.getByRole('button', { name: t(en, 'settings.reveal.submit') }).click();
    await eventually(() => dialog.getByText(t(en, 'errors.codes.wrong_password')).count()).toBe(1);
    await expectAccessible(page);

    await dialog.getByLabel(t(en, 'settings.reveal.password')).fill(e2e.svc.admin.password);
    await dialog.getByRole('button', { name: t(en, 'settings.reveal.submit') }).click();
    const token = await e2e.svc.login();
    const key = (await e2e.svc.api<{ value: string }>('POST', '/api/settings/api-key/reveal', undefined, { token })).body.value;
    await eventually(() => page.getByText(key, { exact: true }).count()).toBe(1);
    // The countdown to hiding it again, from 30 seconds.
    const countdown = new RegExp(t(en, 'common.hiddenIn', { count: 29 }).replace('29', '(29|30)'));
    await eventually(() => page.getByText(countdown).count()).toBe(1);
    await page.getByRole('button', { name: t(en, 'common.hideNow') }).click();
    await eventually(() => page.getByText(key, { exact: true }).count()).toBe(0);
    await expectAccessible(page);
  });
});

describe('settings in Chinese', () => {
  it('shows the groups and fields in zh-CN', async () => {
    const { page } = await e2e.signedIn('desktop');
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/settings');
    await eventually(() => mainHeading(page).textContent()).toBe(t(zhCN, 'settings.title'));
    await eventually(() => page.getByRole('heading', { name: t(zhCN, 'settings.groups.monitoring') }).count()).toBe(1);
    await eventually(() => page.getByRole('textbox', { name: t(zhCN, 'settings.keys.heartbeat_timeout') }).count()).toBe(1);
    await expectAccessible(page);
  });
});
