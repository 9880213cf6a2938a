/**
 * Login allowlist: manual entries added with one bad line named by its error (nothing added), a
 * subscription previewed, saved and refreshed, the warning before turning it on when this
 * browser's address is not listed, and turning it on for the browser's own address, then signing
 * in again from there (and being refused from another address).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../platform/settings/fake-http.js';
import { expectAccessible, login, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const SUBSCRIPTION = b64(['trojan://pw@edge-a.example.com:443#A', 'vless://id@198.51.100.77:443#B'].join('\n'));
const sub = await startFakeServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(SUBSCRIPTION);
});
afterAll(() => sub.close());

// The subscription stand-in is on loopback, which the fetcher admits only in tests.
const e2e = setupE2E({ env: { FLEET_ALLOW_PRIVATE_FETCH: '1' } });

/** The machine is shared: a page may take a few seconds to answer. */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

let token = '';
beforeAll(async () => {
  // Taken before any test turns the allowlist on (API calls come from an unlisted address).
  token = await e2e.svc.login();
});
afterEach(async () => {
  await e2e.svc.api('POST', '/api/settings/ip-allowlist', { manual_ips: [], subscription_url: '', enabled: false }, { token });
});

const state = async () =>
  (await e2e.svc.api<{ enabled: boolean; manual_ips: string[]; subscription_ips: string[] }>('GET', '/api/settings/ip-allowlist', undefined, { token })).body;

describe.each(WIDTHS)('login allowlist at %s', (viewport) => {
  it('adds manual entries; a bad line is named with its error and nothing is added until it is fixed', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/allowlist');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'allowlist.title'));
    const box = page.getByRole('textbox', { name: t(en, 'allowlist.manual.addLabel') });
    await box.fill('203.0.113.10\n10.0.0.0/33\nOps.Example.com');
    await page.getByRole('button', { name: t(en, 'allowlist.manual.add') }).click();
    await eventually(() => page.getByText(t(en, 'allowlist.manual.lineError', { line: 2, input: '10.0.0.0/33' })).count()).toBe(1);
    expect((await state()).manual_ips).toEqual([]);
    await expectAccessible(page);

    await box.fill('203.0.113.10\n10.0.0.0/8\nOps.Example.com');
    await page.getByRole('button', { name: t(en, 'allowlist.manual.add') }).click();
    await eventually(async () => (await state()).manual_ips).toEqual(['203.0.113.10', '10.0.0.0/8', 'ops.example.com']);
    await eventually(() => page.getByText(t(en, 'allowlist.counts.manual', { count: 3 })).count()).toBe(1);

    await page.getByRole('button', { name: t(en, 'allowlist.manual.remove', { entry: '10.0.0.0/8' }) }).click();
    await eventually(async () => (await state()).manual_ips).toEqual(['203.0.113.10', 'ops.example.com']);
  });

  it('previews a subscription, saves it and refreshes it now', async () => {
    const { page } = await e2e.signedIn(viewport, { colorScheme: 'dark' });
    await page.goto('/allowlist');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'allowlist.title'));
    await page.getByRole('textbox', { name: t(en, 'allowlist.subscription.url') }).fill(`${sub.url}/sub`);
    await page.getByRole('button', { name: t(en, 'allowlist.subscription.preview') }).click();
    await eventually(() => page.getByText(t(en, 'allowlist.subscription.previewCount', { count: 2 })).count()).toBe(1);
    await eventually(() => page.getByRole('list', { name: t(en, 'allowlist.subscription.previewHosts') }).getByText('edge-a.example.com').count()).toBe(1);
    expect((await state()).subscription_ips).toEqual([]);
    await expectAccessible(page);

    await page.getByRole('button', { name: t(en, 'allowlist.subscription.save') }).click();
    await eventually(async () => (await state()).subscription_ips).toEqual(['edge-a.example.com', '198.51.100.77']);
    const before = sub.requests.length;
    await page.getByRole('button', { name: t(en, 'allowlist.subscription.refresh') }).click();
    await eventually(() => page.getByText(t(en, 'allowlist.subscription.refreshed', { count: 2 })).count()).toBe(1);
    expect(sub.requests.length).toBe(before + 1);
    await expectAccessible(page);
  });

  it('warns before turning it on when this browser would be locked out', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    await e2e.svc.api('POST', '/api/settings/ip-allowlist/manual', { ips: ['203.0.113.99'] }, { token });
    await page.goto('/allowlist');
    await eventually(() => page.getByText(t(en, 'allowlist.yourAddress', { ip: cp.ip })).count()).toBe(1);
    await page.getByRole('switch', { name: t(en, 'allowlist.enabled') }).click({ force: true });
    const dialog = page.getByRole('dialog', { name: t(en, 'allowlist.lockoutTitle') });
    await eventually(() => dialog.getByText(t(en, 'allowlist.lockoutMessage', { ip: cp.ip })).count()).toBe(1);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: t(en, 'common.cancel') }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect((await state()).enabled).toBe(false);
  });

  it("turns it on for this browser's own address, then signs in again from it (another address is refused)", async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    await page.goto('/allowlist');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'allowlist.title'));
    await page.getByRole('textbox', { name: t(en, 'allowlist.manual.addLabel') }).fill(cp.ip);
    await page.getByRole('button', { name: t(en, 'allowlist.manual.add') }).click();
    await eventually(() => page.getByText(t(en, 'allowlist.youAreListed')).count()).toBe(1);
    await page.getByRole('switch', { name: t(en, 'allowlist.enabled') }).click({ force: true });
    await eventually(async () => (await state()).enabled).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Signed out through the account menu, then in again from the same address.
    await page.getByRole('button', { name: t(en, 'header.account') }).click();
    await page.getByRole('menuitem', { name: t(en, 'header.logout') }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/login'));
    await login(page, e2e.svc.admin.username, e2e.svc.admin.password);
    // Signed in again: back on the page it left.
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'allowlist.title'));
    await eventually(() => page.getByText(t(en, 'allowlist.youAreListed')).count()).toBe(1);

    // Another address is refused.
    const other = await e2e.open(viewport);
    other.allow(/status of 403/);
    await other.page.goto('/login');
    await login(other.page, e2e.svc.admin.username, e2e.svc.admin.password, { wait: false });
    await eventually(() => other.page.getByText(t(en, 'errors.codes.ip_blocked')).count()).toBe(1);
  });
});

describe('login allowlist in Chinese', () => {
  it('shows the page in zh-CN', async () => {
    const { page } = await e2e.signedIn('phone');
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/allowlist');
    await eventually(() => mainHeading(page).textContent()).toBe(t(zhCN, 'allowlist.title'));
    await eventually(() => page.getByRole('switch', { name: t(zhCN, 'allowlist.enabled') }).count()).toBe(1);
    await expectAccessible(page);
  });
});
