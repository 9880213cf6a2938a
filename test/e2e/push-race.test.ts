/**
 * Two clients racing the same push: two operators (two browser sessions) push the same staged
 * directory to the same server at the same moment, one of them with a double click. The service
 * makes exactly one batch per operator action, one batch writes the target, and the other page
 * shows the server refused as busy, naming the batch that writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/browser.js';
import { en, t } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-race-'));
const e2e = setupE2E({ env: { STAGING_PREFIX: `${stagingRoot}/up_` } });
const runDir = () => path.join(e2e.sshd.homeDir, `e2e-race-${process.pid}-${path.basename(stagingRoot)}`);
afterAll(() => {
  fs.rmSync(stagingRoot, { recursive: true, force: true });
  fs.rmSync(runDir(), { recursive: true, force: true });
});

/** A staged directory with a large sparse file: instant here, seconds of rsync to the server. */
function stage(name: string): string {
  const dir = path.join(stagingRoot, `up_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<h1>race</h1>\n');
  const fd = fs.openSync(path.join(dir, 'big.bin'), 'w');
  fs.ftruncateSync(fd, 512 * 1024 * 1024);
  fs.closeSync(fd);
  return dir;
}

/** Source, then the server by its tag, then the review step with its push button. */
async function prepare(page: Page, source: string, tag: string): Promise<void> {
  await page.goto('/push');
  await page.getByRole('radio', { name: source }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox', { name: 'Add a tag group' }).click();
  await page.getByRole('option', { name: t(en, 'push.addTag', { tag, count: 1 }) }).click();
  await expect.poll(() => page.getByText('1 selected').first().isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: /^Push to 1 server/ }).waitFor();
}

const batchOf = async (page: Page) => {
  await page.waitForURL(/\/push\?batch=/);
  return new URL(page.url()).searchParams.get('batch') as string;
};

describe.each(WIDTHS)('two clients racing the same push at %s', (viewport) => {
  let token: string;
  const tag = `e2e-race-${viewport}`;
  let server: { id: number; name: string; target: string };

  beforeAll(async () => {
    token = await e2e.svc.login();
    const target = path.join(runDir(), viewport);
    const name = `race-${viewport}`;
    server = { id: await e2e.createKeyServer(token, { name, tags: [tag], target_path: target }), name, target };
  });

  it('one batch writes; the other page shows the server busy, naming that batch', { timeout: 240_000 }, async () => {
    const source = stage(`race-${viewport}`);
    const [a, b] = await Promise.all([e2e.signedIn(viewport), e2e.signedIn(viewport)]);
    await Promise.all([prepare(a.page, source, tag), prepare(b.page, source, tag)]);
    const total = async () => (await e2e.svc.api<{ total: number }>('GET', '/api/sync/batch-summaries?limit=1', undefined, { token })).body.total;
    const before = await total();

    // At the same moment: a double click on one page, a click on the other.
    await Promise.all([
      a.page.getByRole('button', { name: /^Push to 1 server/ }).dblclick(),
      b.page.getByRole('button', { name: /^Push to 1 server/ }).click(),
    ]);
    const [idA, idB] = await Promise.all([batchOf(a.page), batchOf(b.page)]);
    expect(idA).not.toBe(idB);
    // One batch per operator action: the double click started nothing more.
    expect(await total()).toBe(before + 2);

    const batches = await Promise.all(
      [idA, idB].map(async (id) => (await e2e.svc.api<{ results: Array<{ error: string | null; error_code: string | null }> }>('GET', `/api/sync/batches/${id}`, undefined, { token })).body),
    );
    const busyIndex = batches.findIndex((x) => x.results[0].error_code === 'target_busy');
    expect(busyIndex).toBeGreaterThanOrEqual(0);
    expect(batches[1 - busyIndex].results[0].error_code).toBeNull();
    const writer = [idA, idB][1 - busyIndex];
    const loser = [a, b][busyIndex].page;
    const message = `target ${server.target} is being written by batch ${writer}`;
    expect(batches[busyIndex].results[0].error).toBe(message);

    // The refused page says so in the server's row, naming the batch that writes.
    const row = loser.getByRole('table', { name: 'Results' }).getByRole('row').filter({ hasText: server.name });
    await row.getByText('Target busy:').waitFor({ timeout: 30_000 });
    await row.getByText(message).waitFor();
    await loser.getByText(t(en, 'push.overall', { done: 1, count: 1 })).waitFor();
    await expectAccessible(loser);

    // The writer's page finishes its push; the files are there once, whole.
    const winner = [a, b][1 - busyIndex].page;
    await winner.getByText(t(en, 'push.overall', { done: 1, count: 1 })).waitFor({ timeout: 180_000 });
    await expect.poll(() => winner.getByRole('table', { name: 'Results' }).getByRole('row').filter({ hasText: server.name }).getByText('Success', { exact: true }).isVisible()).toBe(true);
    expect(fs.statSync(path.join(server.target, 'big.bin')).size).toBe(512 * 1024 * 1024);
    expect(fs.readdirSync(server.target).filter((n) => n.startsWith('.big.bin.'))).toEqual([]);
  });
});
