/**
 * The console's first hour, by keyboard and by thumb: the whole push flow with only key presses at
 * 1280 px (skip link first, focus on each step's heading, times never a tab stop, the step and the
 * selection surviving a reload), touch targets measured at 390 px with the palette opened and
 * used from the header, staging directories named by their ZIP with their files viewable, the
 * service's ZIP limit shown before choosing, and a retry that succeeded clearing its job.
 * Screenshots (light, dark, 390 px) go to $CONSOLE_UX_SHOTS when set, to be looked at.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../modules/staging/staging-helpers.js';
import { expectAccessible } from './support/browser.js';
import { en, t } from './support/console-text.js';
import { setupE2E } from './support/e2e.js';

const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-ux-'));
const e2e = setupE2E({ env: { STAGING_PREFIX: `${stagingRoot}/up_`, ZIP_MAX_BYTES: String(3 * 1024 * 1024) } });
const runDir = () => path.join(e2e.sshd.homeDir, `e2e-ux-${process.pid}-${path.basename(stagingRoot)}`);
afterAll(() => {
  fs.rmSync(stagingRoot, { recursive: true, force: true });
  fs.rmSync(runDir(), { recursive: true, force: true });
});
const SHOTS = process.env.CONSOLE_UX_SHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
};

const zip = buildZip([
  { name: 'config/app.conf', data: 'port=80\n' },
  { name: 'index.html', data: '<h1>hello</h1>\n' },
]);

const createServer = (token: string, name: string, tag: string, target: string): Promise<number> =>
  e2e.createKeyServer(token, { name, tags: [tag], target_path: target });

/** What has focus: its role-ish tag, accessible name and whether it is a <time>. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      name: (
        el?.getAttribute('aria-label') ??
        (el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : null) ??
        (el?.getAttribute('aria-labelledby') ? document.getElementById(el.getAttribute('aria-labelledby') as string)?.textContent : null) ??
        el?.textContent ??
        ''
      ).trim(),
      id: el?.id ?? '',
      time: !!el?.closest('time'),
    };
  });

/** Presses Tab until the focused element's name matches; fails after `max` presses. Never focuses a <time>. */
async function tabTo(page: Page, name: string | RegExp, max = 80): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    expect(f.time, 'a relative time took focus').toBe(false);
    if (typeof name === 'string' ? f.name === name : name.test(f.name)) return i;
  }
  throw new Error(`Tab never reached ${String(name)} in ${max} presses (last: ${JSON.stringify(await focused(page))})`);
}

const focusedHeading = (page: Page) => page.evaluate(() => (document.activeElement?.tagName === 'H2' ? document.activeElement.textContent : null));

describe('console by keyboard and touch', () => {
  let token: string;
  const tag = 'e2e-ux';
  let ids: number[];

  beforeAll(async () => {
    token = await e2e.svc.login();
    ids = [await createServer(token, 'ux-alpha', tag, `${runDir()}/alpha`), await createServer(token, 'ux-beta', tag, `${runDir()}/beta`)];
  });

  it('the whole push flow by keyboard alone at 1280 px: upload, servers, preview, push, result', { timeout: 180_000 }, async () => {
    const { page } = await e2e.signedIn('desktop');
    await page.goto('/push');
    await page.getByRole('heading', { level: 2, name: 'Step 1 of 3: Source' }).waitFor();

    // The first tab stop skips the header and the navigation.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ name: 'Skip to content' });
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ id: 'main' });

    // The service's limit, before a file is chosen.
    await page.getByText('At most 3.0 MiB per ZIP and 2.0 GiB once extracted.').waitFor();
    // Enter on the focused button opens the file chooser. On a busy machine a late render (the
    // staging list arriving) can re-mount the button between Tab and Enter, so a keypress that
    // found no focus is tried again, by keyboard again; three misses fail the journey.
    let chosen = false;
    for (let attempt = 0; attempt < 3 && !chosen; attempt++) {
      await tabTo(page, 'Choose a .zip file');
      const chooser = page.waitForEvent('filechooser', { timeout: 15_000 });
      await page.keyboard.press('Enter');
      const fc = await chooser.catch(() => null);
      if (!fc) continue;
      await fc.setFiles({ name: 'keyboard-site.zip', mimeType: 'application/zip', buffer: zip });
      chosen = true;
    }
    expect(chosen, 'Enter on "Choose a .zip file" opened no file chooser').toBe(true);
    await page.getByText(/2 files extracted into /).waitFor({ timeout: 60_000 });
    await shot(page, 'push-source-1280-light');

    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Step 2 of 3: Servers');

    await tabTo(page, 'Add a tag group');
    await page.keyboard.type(tag);
    // The tag list arrives from the service: on a busy machine it can come after the typing, and
    // ArrowDown on an empty list selects nothing.
    await page.getByRole('option', { name: t(en, 'push.addTag', { tag, count: 2 }) }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('2 selected').first().waitFor();
    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Step 3 of 3: Preview');

    // Back and forth by keyboard: focus follows the step.
    await tabTo(page, 'Back');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Step 2 of 3: Servers');
    await tabTo(page, 'Next');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page)).toBe('Step 3 of 3: Preview');

    // The step and the selection are in the URL: a reload comes back to them.
    const url = new URL(page.url());
    expect(url.searchParams.get('step')).toBe('preview');
    expect(url.searchParams.get('servers')).toBe([...ids].sort((a, b) => a - b).join(','));
    expect(url.searchParams.get('source')).toMatch(/^\/.+\/up_/);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Step 3 of 3: Preview' }).waitFor();
    await page.getByRole('button', { name: 'Push to 2 servers' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ name: 'Skip to content' });
    await page.keyboard.press('Enter');

    await tabTo(page, 'Preview 2 servers');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'File list' }).count(), { timeout: 60_000 }).toBe(2);
    await expectAccessible(page);
    await shot(page, 'push-preview-1280-light');

    await tabTo(page, 'Push to 2 servers');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/push\?batch=/);
    await page.getByText(t(en, 'push.overall', { done: 2, count: 2 })).waitFor({ timeout: 90_000 });
    const overall = page.getByRole('progressbar', { name: 'Overall progress' });
    await expect.poll(() => overall.getAttribute('aria-valuenow')).toBe('100');
    expect(fs.readFileSync(path.join(runDir(), 'alpha', 'config/app.conf'), 'utf8')).toBe('port=80\n');
    await expectAccessible(page);
  });

  it('staging directories show their ZIP (name, size, age) and their files before one is chosen', async () => {
    const { page } = await e2e.signedIn('desktop');
    await page.goto('/push');
    const radio = page.getByRole('radio', { name: /^keyboard-site\.zip / });
    await radio.waitFor();
    await page.getByText(`${zip.length} B`, { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'View files: keyboard-site.zip' }).first().click();
    const files = page.getByRole('list', { name: 'Files in keyboard-site.zip' }).first();
    await files.waitFor();
    expect((await files.getByRole('listitem').allInnerTexts()).map((s) => s.trim())).toEqual(['config/', expect.stringMatching(/^index\.html · 15 B$/)]);
    expect(await radio.first().isChecked()).toBe(false);
    await expectAccessible(page);
    await shot(page, 'push-staging-1280-light');
  });

  it('at 390 px every header control is at least 40 × 40 and the palette opens from the header; Enter takes the first match', async () => {
    const { page } = await e2e.signedIn('phone');
    await page.goto('/push');
    await page.getByRole('heading', { level: 2, name: 'Step 1 of 3: Source' }).waitFor();
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('header button, header a, main button, main a, main input[type="radio"], main input[type="checkbox"]')]
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => {
          // A radio or checkbox is operated through its label too: measure what a thumb can hit.
          const hit = el.matches('input') ? (el.closest('label, .mantine-Radio-body, .mantine-Checkbox-body') ?? el) : el;
          const r = hit.getBoundingClientRect();
          return { name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40), w: Math.round(r.width), h: Math.round(r.height) };
        }),
    );
    const burger = sizes.find((s) => s.name === 'Open navigation');
    expect(burger).toMatchObject({ w: 40, h: 40 });
    expect(sizes.filter((s) => s.w < 40 || s.h < 40)).toEqual([]);
    await shot(page, 'push-source-390');

    await page.getByRole('button', { name: 'Open the command palette' }).click();
    const search = page.getByRole('textbox', { name: 'Jump to…' });
    await search.waitFor();
    await search.fill('ux-beta');
    await page.getByText('ux-beta', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/servers' && u.searchParams.get('server') === String(ids[1]));
  });

  it('a retry that succeeded clears its job; a failure reads at AA in dark mode', { timeout: 180_000 }, async () => {
    const broken = await createServer(token, 'ux-gamma', 'e2e-ux-broken', '/proc/fleet-e2e-cannot-write');
    const dirs = await e2e.svc.api<{ items: Array<{ path: string }> }>('GET', '/api/sync/staging-dirs', undefined, { token });
    const source = dirs.body.items[0].path;
    const { page } = await e2e.signedIn('desktop', { colorScheme: 'dark' });
    await page.goto(`/push?step=preview&source=${encodeURIComponent(source)}&servers=${broken}`);
    await page.getByRole('button', { name: 'Push to 1 server' }).click();
    await page.waitForURL(/\/push\?batch=/);
    const failedBatch = new URL(page.url()).searchParams.get('batch') as string;
    await page.getByText('1 failed of 1').waitFor({ timeout: 90_000 });
    await page.goto(`/history/${failedBatch}`);
    await page.getByText('1 failed of 1').waitFor();
    await expectAccessible(page); // axe's colour-contrast covers the failure text in dark mode
    await shot(page, 'batch-failed-1280-dark');

    await page.goto('/retries');
    const row = page.getByRole('row').filter({ hasText: 'ux-gamma' });
    await row.getByText('Pending', { exact: true }).locator('visible=true').first().waitFor();
    await shot(page, 'retries-1280-dark');
    const fixed = await e2e.svc.api('PUT', `/api/servers/${broken}`, { target_path: `${runDir()}/gamma` }, { token });
    expect(fixed.status).toBe(200);
    await page.goto(`/history/${failedBatch}`);
    await page.getByRole('button', { name: t(en, 'push.retryFailed', { count: 1 }) }).click();
    await page.getByText(t(en, 'push.overall', { done: 1, count: 1 })).waitFor({ timeout: 90_000 });
    await page.goto('/retries');
    await row.getByText('Succeeded', { exact: true }).locator('visible=true').first().waitFor({ timeout: 30_000 });
    await expectAccessible(page);
  });
});
