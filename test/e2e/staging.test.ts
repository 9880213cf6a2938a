/**
 * The staging page in the browser against the real service: a ZIP uploaded (through the API) is
 * listed by its name, size and file count; it is validated, browsed (a text file previews as
 * text, a binary one is said to be binary), changed (mkdir, rename, delete), pushed ("Push this"
 * lands on the push flow with it chosen), and old directories are deleted in bulk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildZip } from '../modules/staging/staging-helpers.js';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

// Its own staging prefix, so the listing holds only this file's directories.
const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-stagingpage-'));
const prefix = `${stagingRoot}/up_`;
const e2e = setupE2E({ env: { STAGING_PREFIX: prefix } });
afterAll(() => fs.rmSync(stagingRoot, { recursive: true, force: true }));

const README = 'hello from staging\nsecond line\n';
const zip = buildZip([
  { name: 'readme.txt', data: README },
  { name: 'logo.bin', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01, 0x02]) },
  { name: 'conf/app.conf', data: 'port=80\n' },
]);

async function uploadZip(name: string): Promise<string> {
  const token = await e2e.svc.login();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), name);
  const res = await fetch(`${e2e.svc.url}/api/sync/upload-zip`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { source_path: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.source_path;
}

const dialog = (page: Page) => page.getByRole('dialog');

describe.each(WIDTHS)('staging at %s', (viewport) => {
  it('lists a ZIP upload by name, size and file count; validates, browses, previews, changes and pushes it', async () => {
    const zipName = `site-${viewport}.zip`;
    const dir = await uploadZip(zipName);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/staging');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'staging.title'));
    const table = page.getByRole('table', { name: t(en, 'staging.listLabel') });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: t(en, 'staging.browseName', { name: zipName }) }) });
    await expect.poll(() => row.textContent()).toContain(t(en, 'staging.fileCount', { count: 3 }));
    expect(await row.textContent()).toMatch(/\d+ B/); // the ZIP's own size
    expect(await row.textContent()).toContain(dir);
    await expectAccessible(page);

    // Validate as a push source: every file counted.
    await row.getByRole('button', { name: t(en, 'staging.validateName', { name: zipName }) }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: t(en, 'staging.fileCount', { count: 3 }) }).count()).toBe(1);

    // Browse; preview a text file and a binary one.
    await row.getByRole('link', { name: t(en, 'staging.browseName', { name: zipName }) }).click();
    await page.waitForURL((u) => u.pathname === '/staging/browse' && u.searchParams.get('path') === dir);
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'staging.browseTitle', { name: zipName }));
    await page.getByRole('button', { name: t(en, 'staging.previewName', { name: 'readme.txt' }) }).click();
    await expect.poll(() => dialog(page).getByText('hello from staging').count()).toBe(1);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: t(en, 'staging.previewName', { name: 'logo.bin' }) }).click();
    await expect.poll(() => dialog(page).getByText(t(en, 'staging.binary', { size: '9 B' })).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);

    // mkdir, rename, delete.
    await page.getByRole('button', { name: t(en, 'staging.newFolder') }).first().click();
    await dialog(page).getByRole('textbox', { name: t(en, 'staging.folderName') }).fill('assets');
    await dialog(page).getByRole('button', { name: t(en, 'staging.create') }).click();
    await expect.poll(() => page.getByRole('link', { name: t(en, 'staging.openFolder', { name: 'assets/' }) }).count()).toBe(1);
    expect(fs.statSync(path.join(dir, 'assets')).isDirectory()).toBe(true);

    await page.getByRole('button', { name: t(en, 'staging.renameName', { name: 'readme.txt' }) }).click();
    await dialog(page).getByRole('textbox', { name: t(en, 'staging.newName') }).fill('notes.txt');
    await dialog(page).getByRole('button', { name: t(en, 'staging.rename') }).click();
    await expect.poll(() => page.getByRole('button', { name: t(en, 'staging.previewName', { name: 'notes.txt' }) }).count()).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe(README);

    await page.getByRole('button', { name: t(en, 'staging.deleteName', { name: 'notes.txt' }) }).click();
    await dialog(page).getByRole('button', { name: t(en, 'common.delete') }).click();
    await expect.poll(() => page.getByRole('button', { name: t(en, 'staging.previewName', { name: 'notes.txt' }) }).count()).toBe(0);
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(false);

    // Into a folder and back by the trail.
    await page.getByRole('link', { name: t(en, 'staging.openFolder', { name: 'conf/' }) }).click();
    await page.waitForURL((u) => u.searchParams.get('path') === `${dir}/conf`);
    await page.getByRole('navigation', { name: t(en, 'staging.location') }).getByRole('link', { name: zipName }).click();
    await page.waitForURL((u) => u.searchParams.get('path') === dir);

    // "Push this": the push flow on its servers step, with this directory as the source.
    await page.getByRole('link', { name: t(en, 'staging.pushThisName', { name: zipName }) }).click();
    await page.waitForURL((u) => u.pathname === '/push');
    expect(new URL(page.url()).searchParams.get('source')).toBe(dir);
    await expect
      .poll(() => page.getByRole('heading', { level: 2 }).textContent())
      .toBe(t(en, 'flow.stepHeading', { step: 2, steps: 3, name: t(en, 'push.stepServers') }));
  });

  it('deletes old directories in bulk, and selected ones, after typing how many', async () => {
    const keep = await uploadZip(`keep-${viewport}.zip`);
    const chosen = await uploadZip(`chosen-${viewport}.zip`);
    const old = `${prefix}old-${viewport}`;
    fs.mkdirSync(old);
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    fs.utimesSync(old, longAgo, longAgo);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/staging');
    const table = page.getByRole('table', { name: t(en, 'staging.listLabel') });
    await expect.poll(() => table.getByRole('link', { name: t(en, 'staging.browseName', { name: path.basename(old) }) }).count()).toBe(1);

    // Older than 7 days (the default): only the hand-made directory dated a month back.
    await expect.poll(() => page.getByText(t(en, 'staging.olderMatch', { count: 1 })).count()).toBe(1);
    await page.getByRole('button', { name: t(en, 'staging.deleteOlder') }).click();
    await dialog(page).getByRole('textbox').fill('1');
    await dialog(page).getByRole('button', { name: t(en, 'staging.deleteSelected', { count: 1 }) }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: t(en, 'staging.bulkDone', { count: 1 }) }).count()).toBe(1);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(keep)).toBe(true);

    await page.getByRole('checkbox', { name: t(en, 'staging.select', { name: `chosen-${viewport}.zip` }) }).check();
    await page.getByRole('button', { name: t(en, 'staging.deleteSelected', { count: 1 }) }).click();
    const confirm = dialog(page).getByRole('button', { name: t(en, 'staging.deleteSelected', { count: 1 }) });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog(page).getByRole('textbox').fill('1');
    await confirm.click();
    await expect.poll(() => table.getByRole('link', { name: t(en, 'staging.browseName', { name: `chosen-${viewport}.zip` }) }).count()).toBe(0);
    expect(fs.existsSync(chosen)).toBe(false);
    expect(fs.existsSync(`${chosen}.origin.json`)).toBe(false);
    expect(fs.existsSync(keep)).toBe(true);
  });

  it('passes axe in dark, and reads in Chinese', async () => {
    await uploadZip(`look-${viewport}.zip`);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/staging');
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await expect.poll(() => page.getByRole('table', { name: t(en, 'staging.listLabel') }).count()).toBe(1);
    await expectAccessible(page);
    await page.getByRole('link', { name: t(en, 'staging.browseName', { name: `look-${viewport}.zip` }) }).click();
    await page.getByRole('button', { name: t(en, 'staging.previewName', { name: 'readme.txt' }) }).click();
    await expect.poll(() => dialog(page).getByText('hello from staging').count()).toBe(1);
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/staging');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'staging.title'));
    await expect.poll(() => page.getByRole('table', { name: t(zhCN, 'staging.listLabel') }).count()).toBe(1);
    expect(await page.getByRole('button', { name: t(zhCN, 'staging.deleteOlder') }).count()).toBe(1);
    await expectAccessible(page);
  });
});
