/**
 * The push workflow in the browser against the real service, sshd and rsync: upload a ZIP, pick
 * servers by tag, preview, push and watch rsync's progress arrive in the page, verify, compare a
 * file changed on the server, retry the failed server once it is fixed, and cancel a long push.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../modules/staging/staging-helpers.js';
import { expectAccessible } from './support/browser.js';
import { en, t } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

// Its own staging prefix: the journeys pick "the newest staging directory", which must be theirs.
const stagingRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-e2e-staging-'));
const e2e = setupE2E({ env: { STAGING_PREFIX: `${stagingRoot}/up_` } });
/** Targets on the sshd's home, unique to this run (the home outlives runs). */
const runDir = () => path.join(e2e.sshd.homeDir, `e2e-push-${process.pid}-${path.basename(stagingRoot)}`);
afterAll(() => {
  fs.rmSync(stagingRoot, { recursive: true, force: true });
  fs.rmSync(runDir(), { recursive: true, force: true });
});
/** Large enough for rsync to report progress more than once, small enough to deflate to ~250 KB. */
const BIG = 256 * 1024 * 1024;
const CONF = 'port=80\nname=demo\nworkers=4\n';
const INDEX = '<h1>hello</h1>\n';
const zip = buildZip([
  { name: 'config/app.conf', data: CONF },
  { name: 'index.html', data: INDEX },
  { name: 'big/zeros.bin', data: Buffer.alloc(BIG) },
]);

interface Created {
  id: number;
  name: string;
  target: string;
}

async function createServer(token: string, name: string, tag: string, target: string): Promise<Created> {
  return { id: await e2e.createKeyServer(token, { name, tags: [tag], target_path: target }), name, target };
}

/** Every live message of push batches the page receives on its socket. */
function recordBatchMessages(page: Page): Array<Record<string, unknown>> {
  const seen: Array<Record<string, unknown>> = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      try {
        const m = JSON.parse(String(f.payload)) as Record<string, unknown>;
        if (typeof m.batch_id === 'string') seen.push(m);
      } catch {
        // not JSON: not ours
      }
    }),
  );
  return seen;
}

async function uploadZip(page: Page): Promise<string> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a .zip file' }).click();
  await (await chooser).setFiles({ name: 'site.zip', mimeType: 'application/zip', buffer: zip });
  const done = page.getByText(/3 files extracted into /);
  await done.waitFor({ timeout: 60_000 });
  const text = (await done.textContent()) ?? '';
  return text.replace(/^.*extracted into /, '').trim();
}

async function pickTag(page: Page, tag: string, count: number): Promise<void> {
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox', { name: 'Add a tag group' }).click();
  await page.getByRole('option', { name: t(en, 'push.addTag', { tag, count }) }).click();
  await expect.poll(() => page.getByText(`${count} selected`).first().isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Next' }).click();
}

function resultRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Results' }).getByRole('row').filter({ hasText: name });
}

describe.each(WIDTHS)('push at %s', (viewport) => {
  const tag = `e2e-push-${viewport}`;
  let token: string;
  let alpha: Created;
  let beta: Created;
  let broken: Created;

  beforeAll(async () => {
    token = await e2e.svc.login();
    const home = runDir();
    alpha = await createServer(token, `alpha-${viewport}`, tag, `${home}/e2e-${viewport}-alpha`);
    beta = await createServer(token, `beta-${viewport}`, tag, `${home}/e2e-${viewport}-beta`);
    // A path the login user cannot create: this server fails until its target is fixed.
    broken = await createServer(token, `gamma-${viewport}`, tag, '/proc/fleet-e2e-cannot-write');
  });

  it('uploads a ZIP, previews, pushes with live rsync progress, verifies, compares and retries', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    cp.allow(/status of 4\d\d/); // the broken server's preview answers with an error, shown in the page
    const messages = recordBatchMessages(page);
    await page.goto('/push');
    const source = await uploadZip(page);
    expect(source).toMatch(/^\/.+/);
    await expectAccessible(page);

    await pickTag(page, tag, 3);
    await page.getByRole('button', { name: 'Preview 3 servers' }).click();
    const list = page.getByRole('button', { name: 'File list' });
    await expect.poll(() => list.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByRole('button', { name: 'Preview 3 servers' }).isEnabled(), { timeout: 60_000 }).toBe(true);
    await list.first().click();
    await expect.poll(async () => (await page.getByLabel(/^File list alpha-|^File list beta-/).first().textContent()) ?? '').toContain('config/app.conf');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Push to 3 servers' }).click();
    await page.waitForURL(/\/push\?batch=/);
    const batchId = new URL(page.url()).searchParams.get('batch') as string;
    await page.getByText(t(en, 'push.overall', { done: 3, count: 3 })).waitFor({ timeout: 90_000 });
    await expect.poll(() => resultRow(page, alpha.name).getByText('Success', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => resultRow(page, broken.name).getByText('Failed', { exact: true }).isVisible()).toBe(true);
    await page.getByText('1 failed of 3').waitFor();

    // rsync's own progress reached the page on its socket, in order, and ended in the outcome.
    const mine = messages.filter((m) => m.batch_id === batchId);
    const seqs = mine.map((m) => m.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const alphaMsgs = mine.filter((m) => m.server_id === alpha.id);
    expect(alphaMsgs.some((m) => m.status === 'running' && typeof m.percent === 'number' && (m.bytes_transferred as number) > 0)).toBe(true);
    expect(alphaMsgs.at(-1)).toMatchObject({ type: 'push_progress', status: 'success', bytes_transferred: BIG + CONF.length + INDEX.length });
    expect(mine.at(-1)).toMatchObject({ type: 'push_complete', status: 'partial', succeeded: 2, failed: 1 });
    expect(fs.readFileSync(path.join(alpha.target, 'config/app.conf'), 'utf8')).toBe(CONF);
    await expectAccessible(page);

    // Someone edits the file on beta: verify finds it, the diff shows the change side by side.
    fs.writeFileSync(path.join(beta.target, 'config/app.conf'), 'port=8080\nname=demo\nworkers=4\n');
    await page.getByRole('button', { name: 'Verify' }).click();
    const verify = page.getByRole('table', { name: 'Verification against 3 local files' });
    await verify.waitFor({ timeout: 60_000 });
    // Playwright's innerText (not the DOM property): it keeps the gaps between cells.
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node
    expect(await verify.getByRole('row').filter({ hasText: beta.name }).innerText()).toMatch(/2\s+0\s+1/);
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node
    expect(await verify.getByRole('row').filter({ hasText: alpha.name }).innerText()).toMatch(/3\s+0\s+0/);

    await page.getByRole('combobox', { name: 'Server' }).selectOption({ label: beta.name });
    await page.getByRole('textbox', { name: 'File (relative to the source)' }).fill('config/app.conf');
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.getByRole('table', { name: 'Compare a file: config/app.conf' });
    await diff.waitFor({ timeout: 30_000 });
    const changed = diff.getByRole('row').filter({ hasText: 'port=8080' });
    expect(await changed.getByRole('cell').allInnerTexts()).toEqual([expect.stringContaining('port=8080'), expect.stringContaining('port=80')]);
    await expectAccessible(page);

    // The broken server is fixed; one click pushes again to just the failed one.
    const fixed = await e2e.svc.api('PUT', `/api/servers/${broken.id}`, { target_path: `${runDir()}/e2e-${viewport}-gamma` }, { token });
    expect(fixed.status).toBe(200);
    await page.getByRole('button', { name: t(en, 'push.retryFailed', { count: 1 }) }).click();
    await page.waitForURL((u) => u.searchParams.get('batch') !== batchId);
    await page.getByText(t(en, 'push.overall', { done: 1, count: 1 })).waitFor({ timeout: 90_000 });
    await expect.poll(() => resultRow(page, broken.name).getByText('Success', { exact: true }).isVisible()).toBe(true);
    expect(fs.existsSync(path.join(runDir(), `e2e-${viewport}-gamma`, 'index.html'))).toBe(true);

    // The batch has its own page, reachable by URL.
    await page.goto(`/history/${batchId}`);
    await page.getByRole('heading', { level: 1, name: `Batch ${batchId}` }).waitFor();
    await expect.poll(() => resultRow(page, alpha.name).getByText('Success', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
  });

  it('cancels a long push: servers not started yet are skipped', { timeout: 240_000 }, async () => {
    const home = runDir();
    const many = `e2e-many-${viewport}`;
    const created: Created[] = [];
    for (let i = 0; i < 8; i++) created.push(await createServer(token, `many-${viewport}-${i}`, many, `${home}/e2e-${viewport}-many-${i}`));
    const up = await e2e.svc.api<{ items: Array<{ path: string }> }>('GET', '/api/sync/staging-dirs', undefined, { token });
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    await page.goto('/push');
    await page.getByRole('radio', { name: up.body.items[0].path }).check();
    await pickTag(page, many, 8);
    await page.getByRole('button', { name: 'Push to 8 servers' }).click();
    await page.waitForURL(/\/push\?batch=/);
    // Cancel at once: waiting for a server's progress first let the first servers finish on a fast
    // machine (8 servers, 5 at a time), so that none was left to skip. Servers cancelled before they
    // start are skipped whatever their number (at least the 3 beyond the concurrency).
    await page.getByRole('button', { name: 'Cancel push' }).click();
    await page.getByText('Cancel requested: servers not started yet are skipped.').waitFor();
    await page.getByText('Cancelled', { exact: true }).first().waitFor({ timeout: 120_000 });
    const batchId = new URL(page.url()).searchParams.get('batch') as string;
    const batch = await e2e.svc.api<{ status: string; skipped: number; succeeded: number; total: number }>('GET', `/api/sync/batches/${batchId}`, undefined, { token });
    expect(batch.body).toMatchObject({ status: 'cancelled', total: 8 });
    expect(batch.body.skipped).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.getByRole('table', { name: 'Results' }).getByText('Skipped').count()).toBe(batch.body.skipped);
    // The cancel stays visible on the batch, with its count.
    await page.getByText(t(en, 'flow.cancelledSkipped', { count: batch.body.skipped }), { exact: true }).waitFor();
    await expectAccessible(page);
  });
});
