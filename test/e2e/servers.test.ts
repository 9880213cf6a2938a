/**
 * The servers page in the browser against the real service and sshd: add a server with a pasted
 * private key, find it, test the connection (the host key gets pinned), forget the pinned key,
 * get the agent install command, and delete the server with its name typed.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

describe.each(WIDTHS)('servers at %s', (viewport) => {
  it('adds a real server, tests it, forgets its host key, shows the agent command and deletes it', async () => {
    const { page } = await e2e.signedIn(viewport);
    const s = e2e.sshd;
    const name = `web-${viewport}-${process.pid}`;
    await page.goto('/servers');
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill(s.host);
    await dialog.getByRole('textbox', { name: 'Port', exact: true }).fill(String(s.port));
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill(s.username);
    await dialog.getByRole('textbox', { name: 'Private key' }).fill(s.privateKey);
    await dialog.getByRole('textbox', { name: 'Target path' }).fill(`${s.homeDir}/e2e-servers`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save' }).click();

    // Saving opens the new server; closed, it is in the table (found by search) and opens by name.
    await page.waitForURL(/[?&]server=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('server'));
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // `/` puts the cursor in the search box, as in most consoles.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search servers' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill(name);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(name);
    const table = page.getByRole('table', { name: 'Servers' });
    await table.getByRole('link', { name }).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('server'))
      .toBe(String(id))
      .catch(async (e) => {
        await page.screenshot({ path: `/tmp/lead/srv-${viewport}.png` });
        throw e;
      });
    const detail = page.getByRole('dialog');
    await detail.getByText('Not pinned yet: the first successful connection pins it.').waitFor();

    await detail.getByRole('button', { name: 'Test connection' }).click();
    await detail.getByText(/^Connected in \d+ ms$/).waitFor({ timeout: 30_000 });
    await detail.getByText(s.hostKeyFingerprint).waitFor();
    await expectAccessible(page);
    const token = await e2e.svc.login();
    const stored = await e2e.svc.api<{ host_key_fingerprint: string | null }>('GET', `/api/servers/${id}`, undefined, { token });
    expect(stored.body.host_key_fingerprint).toBe(s.hostKeyFingerprint);

    await detail.getByRole('button', { name: 'Forget host key' }).click();
    const forget = page.getByRole('dialog', { name: 'Forget host key' });
    expect(await forget.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true);
    await forget.getByRole('textbox').fill(name);
    await forget.getByRole('button', { name: 'Confirm' }).click();
    await detail.getByText('Not pinned yet: the first successful connection pins it.').waitFor();
    const forgotten = await e2e.svc.api<{ host_key_fingerprint: string | null }>('GET', `/api/servers/${id}`, undefined, { token });
    expect(forgotten.body.host_key_fingerprint).toBeNull();

    await detail.getByRole('button', { name: 'Generate install command' }).click();
    const command = detail.getByText(/FLEET_AGENT_TOKEN=/);
    await command.waitFor();
    const text = (await command.textContent()) ?? '';
    expect(text).toContain(`${e2e.svc.url}/api/agent/install.sh`);
    expect(text).toMatch(/FLEET_AGENT_TOKEN='[^']{20,}'/);
    await expectAccessible(page);

    // The command palette (Ctrl+K) finds the server by name and opens it.
    await detail.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('server')).toBeNull();
    await page.keyboard.press('Control+K');
    await page.getByRole('textbox', { name: 'Jump to…' }).fill(name);
    await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('server')).toBe(String(id));

    await detail.getByRole('button', { name: 'Delete server' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete server' });
    const del = confirm.getByRole('button', { name: 'Delete', exact: true });
    expect(await del.isDisabled()).toBe(true);
    await confirm.getByRole('textbox').fill(name);
    await del.click();
    await expect.poll(() => table.getByRole('link', { name }).count()).toBe(0);
    expect((await e2e.svc.api('GET', `/api/servers/${id}`, undefined, { token })).status).toBe(404);
  });
});
