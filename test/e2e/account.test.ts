/**
 * Administrators and the own account in the browser against the real service: add and delete an
 * administrator (the last one cannot be deleted); enrol TOTP with a code computed here and sign
 * in again with it, then turn it off; reveal and rotate the API key (the old key is refused at
 * once); sign out the other sessions (another browser's session ends); change the password.
 */
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectAccessible, login, mainHeading, pathOf } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

const colorScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
async function toggleScheme(page: Page, to: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, `header.${to}`)}` }).click();
  await expect.poll(() => colorScheme(page)).toBe(to);
}
const a = (key: string, values?: Record<string, string | number>) => t(en, `account.${key}`, values);

describe.each(WIDTHS)('administrators and account at %s', (viewport) => {
  it('adds an administrator, deletes it, and cannot delete the last one', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/administrators');
    await expect.poll(() => mainHeading(page).textContent()).toBe(a('admins.title'));
    const me = e2e.svc.admin.username;
    // Alone: the delete button is off and the page says why.
    await expect.poll(() => page.getByRole('button', { name: a('admins.deleteNamed', { name: me }) }).isDisabled()).toBe(true);
    await page.getByText(a('admins.lastAdmin')).first().waitFor();
    await expectAccessible(page);
    await toggleScheme(page, 'dark');
    await expectAccessible(page);
    await toggleScheme(page, 'light');

    const name = `ops-${viewport}`;
    await page.getByRole('button', { name: a('admins.add') }).first().click();
    const form = page.getByRole('dialog', { name: a('admins.add') });
    await form.getByRole('textbox', { name: a('admins.username'), exact: true }).fill(name);
    await form.getByRole('textbox', { name: a('admins.password'), exact: true }).fill('ops-password-1');
    await expectAccessible(page);
    await form.getByRole('button', { name: a('admins.add') }).click();
    await form.waitFor({ state: 'detached' });
    const del = page.getByRole('button', { name: a('admins.deleteNamed', { name }) });
    await del.waitFor();
    await page.getByText(a('admins.count', { count: 2 })).waitFor();
    await expect.poll(() => page.getByRole('button', { name: a('admins.deleteNamed', { name: me }) }).isDisabled()).toBe(false);

    await del.click();
    const confirm = page.getByRole('dialog', { name: a('admins.deleteTitle', { name }) });
    const go = confirm.getByRole('button', { name: a('admins.deleteNamed', { name }) });
    expect(await go.isDisabled()).toBe(true); // the name must be typed first
    await confirm.getByRole('textbox').fill(name);
    await expectAccessible(page);
    await go.click();
    await confirm.waitFor({ state: 'detached' });
    await del.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('button', { name: a('admins.deleteNamed', { name: me }) }).isDisabled()).toBe(true);
    await expectAccessible(page);
  });

  it('enrols TOTP and signs in with it, turns it off, reveals and rotates the API key, signs out other sessions, changes the password', async () => {
    const username = `acct-${viewport}`;
    const password = 'acct-password-1';
    const adminToken = await e2e.svc.login();
    const made = await e2e.svc.api<{ id: number }>('POST', '/api/admins', { username, password }, { token: adminToken });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // Deleted however this test ends: the next width's first test counts the administrators.
    onTestFinished(async () => {
      expect((await e2e.svc.api('DELETE', `/api/admins/${made.body.id}`, undefined, { token: adminToken })).status).toBe(204);
    });

    const cp = await e2e.signedIn(viewport, { username, password, next: '/account' });
    const { page } = cp;
    cp.allow(/status of 401/); // the other session's and the old key's refusals are the point
    await expect.poll(() => mainHeading(page).textContent()).toBe(a('account.title'));
    await expectAccessible(page);
    await toggleScheme(page, 'dark');
    await expectAccessible(page);
    await toggleScheme(page, 'light');

    // TOTP: the secret from the page, a code computed here, and the password.
    await page.getByRole('button', { name: a('account.totp.start') }).click();
    await page.getByRole('img', { name: a('account.totp.qrAlt') }).waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    await expectAccessible(page);
    await page.getByRole('textbox', { name: a('account.totp.code'), exact: true }).fill(totp.generate());
    await page.getByRole('textbox', { name: a('account.totp.currentPassword'), exact: true }).fill(password);
    await page.getByRole('button', { name: a('account.totp.enable'), exact: true }).click();
    await page.getByRole('button', { name: a('account.totp.disable') }).waitFor();

    // Another browser signs in with a TOTP code (the next step's: each code is taken once).
    const other = await e2e.open(viewport);
    other.allow(/status of 401/);
    await other.page.goto('/login?next=/dashboard');
    await login(other.page, username, password, { wait: false });
    await expect.poll(() => mainHeading(other.page).textContent()).toBe(t(en, 'login.totpTitle'));
    await other.page.getByRole('textbox', { name: `${t(en, 'login.totpCode')} 1` }).click();
    await other.page.keyboard.type(totp.generate({ timestamp: Date.now() + 30_000 }));
    await other.page.waitForURL((u) => u.pathname === '/dashboard');

    // Off again, with the password.
    await page.getByRole('textbox', { name: a('account.totp.currentPassword'), exact: true }).fill(password);
    await page.getByRole('button', { name: a('account.totp.disable') }).click();
    await page.getByRole('button', { name: a('account.totp.start') }).waitFor();

    // The API key: revealed, then rotated with the password; the old key stops working.
    const keyName = a('account.apiKey.label');
    await page.getByRole('button', { name: t(en, 'settings.reveal.button', { name: keyName }) }).click();
    const revealDialog = page.getByRole('dialog', { name: t(en, 'settings.reveal.title', { name: keyName }) });
    await revealDialog.getByLabel(t(en, 'settings.reveal.password')).fill(password);
    await revealDialog.getByRole('button', { name: t(en, 'settings.reveal.submit') }).click();
    const shown = page.getByTestId('revealed-secret');
    await shown.waitFor();
    const oldKey = (await shown.textContent()) ?? '';
    expect(oldKey.length).toBeGreaterThan(16);
    await expectAccessible(page);
    await page.getByRole('button', { name: t(en, 'common.hideNow') }).click();
    await shown.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: a('account.apiKey.rotate') }).click();
    const rotate = page.getByRole('dialog', { name: a('account.apiKey.rotateTitle') });
    await rotate.getByRole('textbox', { name: a('account.apiKey.currentPassword'), exact: true }).fill(password);
    await rotate.getByRole('button', { name: a('account.apiKey.rotate') }).click();
    await rotate.waitFor({ state: 'detached' });
    await expect.poll(async () => (await shown.textContent()) ?? '').not.toBe(oldKey);
    const newKey = (await shown.textContent()) ?? '';
    const withKey = async (key: string) =>
      (await fetch(`${e2e.svc.url}/api/servers`, { headers: { 'x-api-key': key, 'x-forwarded-for': cp.ip } })).status;
    expect(await withKey(oldKey)).toBe(401);
    expect(await withKey(newKey)).toBe(200);

    // Sign out the other sessions: the other browser's next request ends its session; this one goes on.
    await page.getByRole('button', { name: a('account.sessions.signOutOthers') }).click();
    const confirm = page.getByRole('dialog', { name: a('account.sessions.signOutOthers') });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: a('account.sessions.signOutOthers') }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText(a('account.sessions.done')).waitFor();
    await other.page.goto('/servers');
    await other.page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
    await page.reload();
    await expect.poll(() => mainHeading(page).textContent()).toBe(a('account.title'));
    expect(pathOf(page)).toBe('/account');

    // Change the password: every session ends, this one too; the login brings the admin back here.
    await page.getByRole('textbox', { name: a('account.password.current'), exact: true }).fill(password);
    await page.getByRole('textbox', { name: a('account.password.next'), exact: true }).fill('acct-password-2');
    await page.getByRole('textbox', { name: a('account.password.repeat'), exact: true }).fill('acct-password-2');
    await page.getByRole('button', { name: a('account.password.submit') }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await login(page, username, 'acct-password-2');
    expect(pathOf(page)).toBe('/account');

    // In Chinese once.
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.reload();
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'account.account.title'));
    await page.getByRole('button', { name: t(zhCN, 'account.account.totp.start') }).waitFor();
    await expectAccessible(page);
  });
});
