/**
 * Credentials in the browser against the real service: a password preset is added, revealed only
 * after the admin's own password (a wrong one is refused) and hidden again after 30 s (the page's
 * clock is moved on), the servers using it are listed; an SSH key preset is added from sshd's key.
 * Light and dark, at both widths, and once in Chinese.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

const colorScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

async function toggleScheme(page: Page, to: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, `header.${to}`)}` }).click();
  await expect.poll(() => colorScheme(page)).toBe(to);
}

describe.each(WIDTHS)('credentials at %s', (viewport) => {
  it('adds a password preset, reveals it after the password, hides it after 30 s, lists its servers', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    cp.allow(/status of 400/); // the wrong password below is refused on purpose
    await page.clock.install();
    await page.goto('/credentials');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'credentials.title'));
    await expectAccessible(page);

    const name = `deploy-pw-${viewport}`;
    const secret = `S3cret-${viewport}-${Date.now()}`;
    await page.getByRole('button', { name: t(en, 'credentials.addPassword') }).first().click();
    const form = page.getByRole('dialog', { name: t(en, 'credentials.addPassword') });
    await form.getByRole('textbox', { name: t(en, 'credentials.name'), exact: true }).fill(name);
    await form.getByRole('textbox', { name: t(en, 'credentials.username') }).fill('deploy');
    await form.getByRole('textbox', { name: t(en, 'credentials.password'), exact: true }).fill(secret);
    await expectAccessible(page);
    await form.getByRole('button', { name: t(en, 'common.save') }).click();
    await form.waitFor({ state: 'detached' });
    const reveal = page.getByRole('button', { name: t(en, 'credentials.revealNamed', { name }) });
    await reveal.waitFor();
    // The list never holds the secret.
    expect(await page.content()).not.toContain(secret);

    // A server that uses it (made through the API: the servers page is another journey's).
    const token = await e2e.svc.login();
    const presets = await e2e.svc.api<Array<{ id: number; name: string }>>('GET', '/api/presets', undefined, { token });
    const presetId = presets.body.find((p) => p.name === name)?.id;
    const serverName = `uses-pw-${viewport}`;
    const created = await e2e.svc.api(
      'POST',
      '/api/servers',
      { name: serverName, host: e2e.sshd.host, port: e2e.sshd.port, auth_type: 'password', password_preset_id: presetId },
      { token },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.reload();
    const servers = page.getByRole('button', {
      name: `${t(en, 'credentials.servers', { count: 1 })} — ${t(en, 'credentials.serversUsingNamed', { name })}`,
      exact: true,
    });
    await servers.click();
    const drawer = page.getByRole('dialog', { name: t(en, 'credentials.serversOf', { name }) });
    await drawer.getByRole('link', { name: t(en, 'credentials.openServer', { name: serverName }) }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Reveal: a wrong password is refused, the right one shows the secret.
    await reveal.click();
    const dialog = page.getByRole('dialog', { name: t(en, 'credentials.revealTitle', { name }) });
    const password = dialog.getByRole('textbox', { name: t(en, 'credentials.currentPassword'), exact: true });
    await password.fill('not-my-password');
    await dialog.getByRole('button', { name: t(en, 'credentials.reveal') }).click();
    await dialog.getByText(t(en, 'errors.codes.wrong_password')).waitFor();
    await password.fill(e2e.svc.admin.password);
    await dialog.getByRole('button', { name: t(en, 'credentials.reveal') }).click();
    const shown = dialog.getByTestId('revealed-secret');
    await expect.poll(() => shown.textContent()).toBe(secret);
    await dialog.getByText(t(en, 'common.hiddenIn', { count: 30 })).waitFor();
    await expectAccessible(page);
    // 30 seconds later it is gone from the page.
    await page.clock.fastForward(31_000);
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    await page.keyboard.press('Escape');

    // Dark scheme: the list and the reveal dialog.
    await toggleScheme(page, 'dark');
    await expectAccessible(page);
    await toggleScheme(page, 'light');
  });

  it('adds an SSH key preset on its own tab; the public key is derived', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/credentials/ssh-keys');
    await expect.poll(() => page.getByRole('tab', { name: t(en, 'credentials.tabs.sshKey') }).getAttribute('aria-selected')).toBe('true');
    const name = `deploy-key-${viewport}`;
    await page.getByRole('button', { name: t(en, 'credentials.addSshKey') }).first().click();
    const form = page.getByRole('dialog', { name: t(en, 'credentials.addSshKey') });
    await form.getByRole('textbox', { name: t(en, 'credentials.name'), exact: true }).fill(name);
    await form.getByRole('textbox', { name: t(en, 'credentials.privateKey') }).fill(e2e.sshd.privateKey);
    await form.getByRole('button', { name: t(en, 'common.save') }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: t(en, 'credentials.revealNamed', { name }) }).waitFor();
    await page.getByText(/^ssh-(rsa|ed25519) /).first().waitFor();
    await expectAccessible(page);
    await toggleScheme(page, 'dark');
    await expectAccessible(page);
    await toggleScheme(page, 'light');
  });

  it('with credential_reauth on, giving a server a password preset asks for the password', async () => {
    const token = await e2e.svc.login();
    const name = `reauth-pw-${viewport}`;
    expect((await e2e.svc.api('POST', '/api/presets', { name, encrypted_pw: 'reauth-secret' }, { token })).status).toBe(201);
    expect((await e2e.svc.api('PUT', '/api/settings/credential_reauth', { value: 'true' }, { token })).status).toBe(200);
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    cp.allow(/status of 400/); // the first save is refused until the password is given
    try {
      await page.goto('/servers');
      await page.getByRole('button', { name: t(en, 'servers.add') }).first().click();
      const dialog = page.getByRole('dialog');
      const server = `reauth-srv-${viewport}`;
      await dialog.getByRole('textbox', { name: t(en, 'servers.name'), exact: true }).fill(server);
      await dialog.getByRole('textbox', { name: t(en, 'servers.host'), exact: true }).fill(e2e.sshd.host);
      await dialog.getByRole('radio', { name: t(en, 'servers.authPassword') }).check();
      await dialog.getByRole('radio', { name: t(en, 'servers.preset') }).check();
      await dialog.getByLabel(t(en, 'servers.passwordPreset')).and(page.locator('input')).click();
      await page.getByRole('option', { name: `${name} (root)`, exact: true }).click();
      await dialog.getByRole('button', { name: t(en, 'common.save') }).click();
      const prompt = dialog.getByRole('alert').filter({ hasText: t(en, 'servers.reauthTitle') });
      await prompt.waitFor();
      await expectAccessible(page);
      await prompt.getByRole('textbox', { name: t(en, 'password.current') }).fill(e2e.svc.admin.password);
      await dialog.getByRole('button', { name: t(en, 'common.save') }).click();
      await expect
        .poll(async () => (await e2e.svc.api<Array<{ name: string }>>('GET', `/api/servers`, undefined, { token })).body.some((s) => s.name === server))
        .toBe(true);
    } finally {
      expect((await e2e.svc.api('PUT', '/api/settings/credential_reauth', { value: 'false' }, { token })).status).toBe(200);
    }
  });

  it('reads in Chinese', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/credentials');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'credentials.title'));
    await page.getByRole('tab', { name: t(zhCN, 'credentials.tabs.password') }).waitFor();
    await page.getByRole('button', { name: t(zhCN, 'credentials.servers', { count: 1 }) }).first().waitFor();
    await expectAccessible(page);
  });
});
