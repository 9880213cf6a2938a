/**
 * Chinese file names through the whole push: an archive written by Info-ZIP `zip` (UTF-8 bytes
 * without the UTF-8 flag) and one with GBK names (as Chinese Windows tools write them) are
 * uploaded in the browser, listed, previewed with rsync, pushed to the real sshd and verified,
 * and the files land on the server under their real names, not CP437 mojibake.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip, hasZipCli, zipDir } from '../modules/staging/staging-helpers.js';
import { expectAccessible } from './support/browser.js';
import { en, t } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-names-'));
const e2e = setupE2E({ env: { STAGING_PREFIX: `${stagingRoot}/up_` } });
const runDir = () => path.join(e2e.sshd.homeDir, `e2e-names-${process.pid}-${path.basename(stagingRoot)}`);
afterAll(() => {
  fs.rmSync(stagingRoot, { recursive: true, force: true });
  fs.rmSync(runDir(), { recursive: true, force: true });
});

/** Info-ZIP `zip` run on this (UTF-8) system over a directory with Chinese names, one nested. */
function infoZipArchive(): Buffer {
  const src = path.join(stagingRoot, 'info-zip-src');
  fs.mkdirSync(path.join(src, '中文目录/子目录'), { recursive: true });
  fs.writeFileSync(path.join(src, '文件 名称.txt'), 'info-zip\n');
  fs.writeFileSync(path.join(src, '中文目录/子目录/数据.txt'), 'nested\n');
  return zipDir(src, path.join(stagingRoot, 'info-zip.zip'));
}

/** GBK names, byte for byte, without any UTF-8 marking. */
const gbkArchive = () =>
  buildZip([
    { name: 'a', rawName: Buffer.from('cec4bcfe20c3fbb3c62e747874', 'hex'), utf8Flag: false, data: 'gbk\n' }, // 文件 名称.txt
    { name: 'b', rawName: Buffer.from('d6d0cec4c4bfc2bc2fcafdbedd2e747874', 'hex'), utf8Flag: false, data: 'gbk nested\n' }, // 中文目录/数据.txt
    { name: 'c', rawName: Buffer.from('b3a4'.repeat(60), 'hex'), utf8Flag: false, data: 'long\n' }, // 长 × 60: 180 bytes in UTF-8
  ]);

const ARCHIVES = [
  { label: 'Info-ZIP', encoding: 'UTF-8', files: { '文件 名称.txt': 'info-zip\n', '中文目录/子目录/数据.txt': 'nested\n' }, build: infoZipArchive },
  {
    label: 'GBK',
    encoding: 'GB18030 (GBK)',
    files: { '文件 名称.txt': 'gbk\n', '中文目录/数据.txt': 'gbk nested\n', ['长'.repeat(60)]: 'long\n' },
    build: gbkArchive,
  },
];

async function uploadAndPush(page: Page, zip: Buffer, tag: string, encoding: string, names: string[]): Promise<string> {
  await page.goto('/push');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a .zip file' }).click();
  await (await chooser).setFiles({ name: '中文.zip', mimeType: 'application/zip', buffer: zip });
  await page.getByText(`${names.length} files extracted into `).waitFor({ timeout: 60_000 });
  const listing = page.getByRole('list', { name: 'File list' });
  expect((await listing.getByRole('listitem').allTextContents()).sort()).toEqual([...names].sort());
  await page.getByText(`File names read as ${encoding}`).waitFor();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox', { name: 'Add a tag group' }).click();
  await page.getByRole('option', { name: t(en, 'push.addTag', { tag, count: 1 }) }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  // rsync's dry run lists the same names (itemized as UTF-8, not \#ooo escapes).
  await page.getByRole('button', { name: t(en, 'push.previewAll', { count: 1 }) }).click();
  await page.getByRole('button', { name: 'File list' }).first().click({ timeout: 60_000 });
  const preview = page.getByLabel(/^File list /).first();
  for (const name of names) await expect.poll(async () => (await preview.textContent()) ?? '', { timeout: 30_000 }).toContain(name);

  await page.getByRole('button', { name: t(en, 'push.start', { count: 1 }) }).click();
  await page.waitForURL(/\/push\?batch=/);
  await page.getByText(t(en, 'push.overall', { done: 1, count: 1 })).waitFor({ timeout: 90_000 });
  return new URL(page.url()).searchParams.get('batch') as string;
}

describe.skipIf(!hasZipCli()).each(WIDTHS)('Chinese ZIP names pushed at %s', (viewport) => {
  let token: string;
  beforeAll(async () => {
    token = await e2e.svc.login();
  });

  it('an Info-ZIP and a GBK archive are pushed and verified with the right names on the server', async () => {
    for (const archive of ARCHIVES) {
      const tag = `e2e-names-${viewport}-${archive.label}`;
      const name = `names-${viewport}-${archive.label}`;
      const target = path.join(runDir(), `${viewport}-${archive.label}`);
      const s = e2e.sshd;
      const created = await e2e.svc.api(
        'POST',
        '/api/servers',
        { name, host: s.host, port: s.port, username: s.username, auth_type: 'key', private_key: s.privateKey, tags: [tag], target_path: target },
        { token },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);

      const { page } = await e2e.signedIn(viewport);
      const names = Object.keys(archive.files);
      await uploadAndPush(page, archive.build(), tag, archive.encoding, names);
      const row = page.getByRole('table', { name: 'Results' }).getByRole('row').filter({ hasText: name });
      await expect.poll(() => row.getByText('Success', { exact: true }).isVisible()).toBe(true);

      // On the server: exactly these files, under these names, with their contents.
      const onServer = (fs.readdirSync(target, { recursive: true, encoding: 'utf8' }) as string[])
        .filter((f) => fs.statSync(path.join(target, f)).isFile())
        .sort();
      expect(onServer).toEqual([...names].sort());
      for (const [file, content] of Object.entries(archive.files)) expect(fs.readFileSync(path.join(target, file), 'utf8')).toBe(content);

      await page.getByRole('button', { name: 'Verify' }).click();
      const verify = page.getByRole('table', { name: t(en, 'push.verifyTitle', { count: names.length }) });
      await verify.waitFor({ timeout: 60_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node
      expect(await verify.getByRole('row').filter({ hasText: name }).innerText()).toMatch(new RegExp(`${names.length}\\s+0\\s+0`));
      await expectAccessible(page);
    }
  });
});
