/**
 * The remote files page in the browser against the real service and sshd: open it from the server's
 * detail, browse (breadcrumbs, hidden files, a long directory that stays virtualised), rename (and
 * find it in the audit log), new folder, delete a folder with its name typed, upload a file with
 * byte progress and the limit shown first, a protected path refused in the operator's language; and
 * Diagnose a server whose sshd is not running, with the failed reachability check and its advice.
 * Axe in light and dark; once in zh-CN.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../fixtures/sshd.js';
import { buildZip } from '../modules/staging/staging-helpers.js';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();
const runDir = () => path.join(e2e.sshd.homeDir, `e2e-files-${process.pid}`);
afterAll(() => fs.rmSync(runDir(), { recursive: true, force: true }));

/** Files on the "remote" side belong to the sshd's login user, as if it had made them. */
function own(p: string): void {
  const uid = Number(execFileSync('id', ['-u', e2e.sshd.username], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', e2e.sshd.username], { encoding: 'utf8' }).trim());
  execFileSync('chown', ['-R', `${uid}:${gid}`, p]);
}

function seed(base: string): void {
  fs.mkdirSync(path.join(base, 'docs'), { recursive: true });
  fs.mkdirSync(path.join(base, 'trash', 'inner'), { recursive: true });
  fs.mkdirSync(path.join(base, 'many'), { recursive: true });
  fs.writeFileSync(path.join(base, 'docs', 'readme.txt'), 'hello\n');
  fs.writeFileSync(path.join(base, 'trash', 'inner', 'x.txt'), 'x');
  fs.writeFileSync(path.join(base, 'old.txt'), 'old\n');
  fs.writeFileSync(path.join(base, '.secret'), 'hidden\n');
  for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(base, 'many', `f-${String(i).padStart(5, '0')}.txt`), '');
  own(base);
}

async function createServer(token: string, name: string, target: string, port = e2e.sshd.port): Promise<number> {
  const s = e2e.sshd;
  const res = await e2e.svc.api<{ id: number }>(
    'POST',
    '/api/servers',
    { name, host: s.host, port, username: s.username, auth_type: 'key', private_key: s.privateKey, target_path: target },
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

async function rowAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: t(en, 'remoteFiles.actionsFor', { name }) }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function switchScheme(page: Page, to: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, `header.${to}`)}` }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe(to);
}

describe.each(WIDTHS)('remote files at %s', (viewport) => {
  let token: string;
  let base: string;
  let serverId: number;
  const serverName = `files-${viewport}`;

  beforeAll(async () => {
    token = await e2e.svc.login();
    base = path.join(runDir(), viewport);
    seed(base);
    serverId = await createServer(token, serverName, base);
  });

  it('browses, renames, makes a folder, deletes a folder by its typed name, uploads with progress, and shows a protected path refused', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    cp.allow(/status of 400/); // the protected path's refusal, shown in the page

    // From the server's own view.
    await page.goto(`/servers?server=${serverId}`);
    await page.getByRole('link', { name: t(en, 'remoteFiles.openFiles'), exact: true }).click();
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'remoteFiles.title', { name: serverName }));
    await expect.poll(() => row(page, 'old.txt').count(), { timeout: 20_000 }).toBe(1);
    // Directories first; the hidden file only on request.
    const names = await page.getByRole('row').allTextContents();
    expect(names.findIndex((n) => n.includes('docs'))).toBeLessThan(names.findIndex((n) => n.includes('old.txt')));
    expect(await row(page, '.secret').count()).toBe(0);
    await page.getByRole('switch', { name: t(en, 'remoteFiles.showHidden') }).click({ force: true });
    await expect.poll(() => row(page, '.secret').count()).toBe(1);
    expect(page.url()).toContain('hidden=1');
    await expectAccessible(page);

    // Into a folder and back by the breadcrumbs.
    await page.getByRole('link', { name: 'docs', exact: true }).click();
    await expect.poll(() => row(page, 'readme.txt').count()).toBe(1);
    const crumbs = page.getByRole('navigation', { name: t(en, 'remoteFiles.breadcrumbs') });
    await crumbs.getByRole('link', { name: viewport, exact: true }).click();
    await expect.poll(() => row(page, 'old.txt').count()).toBe(1);

    // A long directory: only the rows in view are in the page.
    await page.getByRole('link', { name: 'many', exact: true }).click();
    await expect.poll(() => page.getByText(t(en, 'remoteFiles.entries', { count: 3000 })).count()).toBe(1);
    const rendered = await page.getByRole('row').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(150);
    await page.goBack();
    await expect.poll(() => row(page, 'old.txt').count()).toBe(1);

    // Rename, then find it in the audit log.
    await rowAction(page, 'old.txt', t(en, 'remoteFiles.rename'));
    const renameDialog = page.getByRole('dialog', { name: t(en, 'remoteFiles.renameTitle', { name: 'old.txt' }) });
    await renameDialog.getByLabel(t(en, 'remoteFiles.newName')).fill('new.txt');
    await renameDialog.getByRole('button', { name: t(en, 'remoteFiles.rename') }).click();
    await expect.poll(() => row(page, 'new.txt').count()).toBe(1);
    expect(fs.existsSync(path.join(base, 'new.txt'))).toBe(true);
    const audit = await e2e.svc.api<{ items: Array<{ action: string; detail: string; target_id: string }> }>('GET', '/api/audit?action=file_rename&limit=50', undefined, { token });
    expect(audit.body.items.some((a) => a.detail === `${base}/old.txt -> ${base}/new.txt` && a.target_id === String(serverId))).toBe(true);

    // New folder.
    await page.getByRole('button', { name: t(en, 'remoteFiles.newFolder') }).click();
    const mkdir = page.getByRole('dialog', { name: t(en, 'remoteFiles.newFolderIn', { path: base }) });
    await mkdir.getByLabel(t(en, 'remoteFiles.folderName')).fill('made');
    await mkdir.getByRole('button', { name: t(en, 'remoteFiles.create') }).click();
    await expect.poll(() => row(page, 'made').count()).toBe(1);
    expect(fs.statSync(path.join(base, 'made')).isDirectory()).toBe(true);

    // Delete a folder: its name must be typed first.
    await rowAction(page, 'trash', t(en, 'remoteFiles.delete'));
    const del = page.getByRole('dialog', { name: t(en, 'remoteFiles.deleteDirTitle') });
    const confirm = del.getByRole('button', { name: t(en, 'remoteFiles.delete') });
    expect(await confirm.isDisabled()).toBe(true);
    await del.getByLabel(t(en, 'servers.typeToConfirm', { word: 'trash' })).fill('trash');
    await confirm.click();
    await expect.poll(() => row(page, 'trash').count()).toBe(0);
    expect(fs.existsSync(path.join(base, 'trash'))).toBe(false);

    // Upload: the limit first, then the bytes as they go (the upload is slowed so progress shows).
    await page.getByRole('button', { name: t(en, 'remoteFiles.upload') }).first().click();
    const up = page.getByRole('dialog', { name: t(en, 'remoteFiles.uploadTitle', { path: base }) });
    const limitPrefix = t(en, 'remoteFiles.uploadLimit', { size: '\u0000' }).split('\u0000')[0];
    await expect.poll(() => up.getByText(limitPrefix).textContent()).toMatch(/\d+ MiB$/);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { seenProgress: number[] }).seenProgress = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="progressbar"]')) seen.push(Number(el.getAttribute('aria-valuenow')));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const payload = Buffer.alloc(3 * 1024 * 1024, 7);
    await up.locator('input[type="file"]').setInputFiles({ name: 'upload.bin', mimeType: 'application/octet-stream', buffer: payload });
    await up.getByRole('button', { name: t(en, 'remoteFiles.send') }).click();
    await expect.poll(() => row(page, 'upload.bin').count(), { timeout: 60_000 }).toBe(1);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = await page.evaluate(() => (window as unknown as { seenProgress: number[] }).seenProgress);
    expect(seen.some((v) => v > 0 && v < 100), `progress values seen: ${seen.slice(0, 20).join(',')}`).toBe(true);
    expect(fs.statSync(path.join(base, 'upload.bin')).size).toBe(payload.length);

    // Compare a file with the matching file of a staging directory (same path under the target).
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(buildZip([{ name: 'docs/readme.txt', data: 'hello\nworld\n' }]))]), `files-${viewport}.zip`);
    const zipRes = await fetch(`${e2e.svc.url}/api/sync/upload-zip`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(zipRes.status).toBe(200);
    const source = ((await zipRes.json()) as { source_path: string }).source_path;
    await page.getByRole('link', { name: 'docs', exact: true }).click();
    await expect.poll(() => row(page, 'readme.txt').count()).toBe(1);
    await rowAction(page, 'readme.txt', t(en, 'remoteFiles.compare'));
    const cmp = page.getByRole('dialog', { name: t(en, 'remoteFiles.compareTitle', { name: 'readme.txt' }) });
    await cmp.getByLabel(t(en, 'remoteFiles.stagingDir'), { exact: true }).selectOption(source);
    expect(await cmp.getByLabel(t(en, 'remoteFiles.relativePath'), { exact: true }).inputValue()).toBe('docs/readme.txt');
    await cmp.getByRole('button', { name: t(en, 'remoteFiles.runCompare') }).click();
    const diffTable = cmp.getByRole('table', { name: `${t(en, 'push.diffTitle')}: docs/readme.txt` });
    await expect.poll(() => diffTable.count(), { timeout: 20_000 }).toBe(1);
    expect(await diffTable.textContent()).toContain('world');
    await page.keyboard.press('Escape');
    await expect.poll(() => cmp.isHidden(), { timeout: 10_000 }).toBe(true);

    // A protected path: refused by the service, shown in the operator's language.
    await page.goto(`/servers/${serverId}/files?path=/`);
    await expect.poll(() => row(page, 'etc').count(), { timeout: 20_000 }).toBe(1);
    await rowAction(page, 'etc', t(en, 'remoteFiles.delete'));
    const delEtc = page.getByRole('dialog', { name: t(en, 'remoteFiles.deleteDirTitle') });
    await delEtc.getByLabel(t(en, 'servers.typeToConfirm', { word: 'etc' })).fill('etc');
    await delEtc.getByRole('button', { name: t(en, 'remoteFiles.delete') }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: t(en, 'errors.codes.protected_path') }).count()).toBe(1);
    expect(fs.existsSync('/etc/passwd')).toBe(true);
    await expectAccessible(page);
  });

  it('diagnoses a server whose sshd is not running: reachability failed, with what to do; axe in dark', async () => {
    const port = await freePort();
    const dead = await createServer(token, `stopped-${viewport}`, '/tmp', port);
    const { page } = await e2e.signedIn(viewport);
    await switchScheme(page, 'dark');
    await page.goto(`/servers?server=${dead}`);
    await page.getByRole('link', { name: t(en, 'remoteFiles.diagnose'), exact: true }).click();
    const panel = page.getByRole('dialog', { name: t(en, 'remoteFiles.diagnoseTitle', { name: `stopped-${viewport}` }) });
    const reach = panel.getByRole('listitem', { name: `${t(en, 'remoteFiles.checks.reachability')}: ${t(en, 'remoteFiles.checkStatus.failed')}` });
    await expect.poll(() => reach.count(), { timeout: 30_000 }).toBe(1);
    expect(await reach.textContent()).toContain(t(en, 'remoteFiles.advice.start_sshd'));
    expect(await reach.textContent()).toMatch(/refused/i);
    await expect.poll(() => panel.getByRole('listitem', { name: `${t(en, 'remoteFiles.checks.rsync')}: ${t(en, 'remoteFiles.checkStatus.skipped')}` }).count()).toBe(1);
    expect(await panel.getByText(t(en, 'remoteFiles.failedCount', { count: 1 })).count()).toBe(1);
    // The listing behind it names the failure too.
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.url()).not.toContain('diagnose=1');
    await expect.poll(() => panel.isHidden(), { timeout: 10_000 }).toBe(true); // closed, not fading out under axe
    await expect.poll(() => page.getByRole('alert').filter({ hasText: t(en, 'remoteFiles.listError') }).count()).toBe(1);
    await expectAccessible(page);
    await switchScheme(page, 'light');
  });

  it('reads in Chinese', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto(`/servers/${serverId}/files`);
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'remoteFiles.title', { name: serverName }));
    await expect.poll(() => page.getByRole('button', { name: t(zhCN, 'remoteFiles.actionsFor', { name: 'docs' }) }).count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByRole('columnheader', { name: t(zhCN, 'remoteFiles.columns.name') }).count()).toBe(1);
    await expectAccessible(page);
    await page.evaluate(() => localStorage.setItem('fleet.language', 'en'));
  });
});
