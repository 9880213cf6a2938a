/**
 * Signing in and out in the browser: a refused password, a TOTP login, a session that ends
 * underneath the user (they sign in again and are back where they were), logging out.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { expectAccessible, login, mainHeading, pathOf } from './support/browser.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

/** A second administrator, created through the API by the first. */
async function createAdmin(username: string, password: string): Promise<void> {
  const token = await e2e.svc.login();
  const res = await e2e.svc.api('POST', '/api/admins', { username, password }, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

function totpFor(secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

describe.each(WIDTHS)('login at %s', (viewport) => {
  it('a wrong password says so; the right one lands on the dashboard', async () => {
    const cp = await e2e.open(viewport);
    const { page } = cp;
    cp.allow(/status of 401/); // the refused login's answer
    await page.goto('/');
    await page.waitForURL('**/login');
    await expectAccessible(page);

    await login(page, e2e.svc.admin.username, 'not-the-password', { wait: false });
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password.');
    expect(pathOf(page)).toBe('/login');
    await expectAccessible(page);

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(e2e.svc.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(() => mainHeading(page).textContent()).toBe('Dashboard');
    await expectAccessible(page);
  });

  it('an admin with TOTP signs in with the code step', async () => {
    const username = `totp-${viewport}`;
    const password = 'totp-password-1';
    await createAdmin(username, password);
    const token = await e2e.svc.login(username, password);
    const setup = await e2e.svc.api<{ secret: string }>('POST', '/api/auth/totp/setup', undefined, { token });
    expect(setup.status).toBe(200);
    const totp = totpFor(setup.body.secret);
    // Each code is accepted once: enable with this step's code, sign in with the next step's
    // (valid now within the ±1 window, and still valid after the step turns).
    const enable = await e2e.svc.api('POST', '/api/auth/totp/enable', { code: totp.generate(), current_password: password }, { token });
    expect(enable.status, JSON.stringify(enable.body)).toBe(200);

    const cp = await e2e.open(viewport);
    const { page } = cp;
    cp.allow(/status of 401/); // the first step's answer: 401 totp_required
    await page.goto('/login');
    await login(page, username, password, { wait: false });
    await expect.poll(() => mainHeading(page).textContent()).toBe('Two-factor code');
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Authentication code 1' }).click();
    await page.keyboard.type(totp.generate({ timestamp: Date.now() + 30_000 }));
    // The code submits itself when the sixth digit is in.
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(() => mainHeading(page).textContent()).toBe('Dashboard');
    await expectAccessible(page);
  });

  it('a session revoked mid-way returns to the login page, and afterwards to the same page', async () => {
    const username = `reauth-${viewport}`;
    await createAdmin(username, 'first-password-1');
    const changePassword = async (from: string, to: string) => {
      const token = await e2e.svc.login(username, from);
      const res = await e2e.svc.api('POST', '/api/auth/change-password', { current_password: from, new_password: to }, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };

    const cp = await e2e.signedIn(viewport, { username, password: 'first-password-1', next: '/tags' });
    const { page } = cp;
    cp.allow(/status of 401/); // the revoked tokens' refusals are the point of this test
    expect(pathOf(page)).toBe('/tags');

    // Elsewhere, the password changes: every token of this login stops working. The live socket is
    // closed with 4401, its refresh is refused too, and the console goes to the login page.
    await changePassword('first-password-1', 'second-password-2');
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('next')).toBe('/tags');
    await expectAccessible(page);
    await login(page, username, 'second-password-2');
    expect(pathOf(page)).toBe('/tags');
    await expect.poll(() => mainHeading(page).textContent()).toBe('Tags');
    await expectAccessible(page);

    // The same on a page opened afresh: its first request is refused, the login page keeps where it was.
    await changePassword('second-password-2', 'third-password-3');
    await page.goto('/audit');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/audit');
    await login(page, username, 'third-password-3');
    expect(pathOf(page)).toBe('/audit');
    await expect.poll(() => mainHeading(page).textContent()).toBe('Audit log');
    await expectAccessible(page);
  });

  it('logs out from the account menu', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.getByRole('button', { name: 'Account' }).click();
    await expectAccessible(page);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('fleet.session'))).toBeNull();
    await expectAccessible(page);
    // Signed out for real: the console sends us back to the login page.
    await page.goto('/servers');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/servers');
  });
});
