/**
 * The scripts journey in the browser against the real service and sshd: write and save a script
 * in the editor, run it on two key-auth servers picked by tag and watch both outputs arrive live,
 * reload mid-run and see the output resumed without loss or doubles, exit codes, expand/collapse
 * all, a failing script's exit code, and the run history filtered by status. axe in light and
 * dark, and once in zh-CN.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();
const LINES = 16;
const EXPECTED = Array.from({ length: LINES }, (_, i) => `line ${i + 1}\n`).join('');

async function createServer(token: string, name: string, tag: string): Promise<{ id: number; name: string }> {
  const s = e2e.sshd;
  const res = await e2e.svc.api<{ id: number }>(
    'POST',
    '/api/servers',
    { name, host: s.host, port: s.port, username: s.username, auth_type: 'key', private_key: s.privateKey, tags: [tag] },
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, name };
}

const output = (page: Page, server: string) => page.getByRole('log', { name: t(en, 'scripts.outputOf', { server }) });
const outText = async (page: Page, server: string) => ((await output(page, server).count()) ? ((await output(page, server).textContent()) ?? '') : '');

/** Replaces the editor's text (insertText: no auto-closed brackets or auto-indent). */
async function typeScript(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: t(en, 'scripts.content') });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function pickTag(page: Page, tag: string, count: number): Promise<void> {
  await page.getByRole('combobox', { name: t(en, 'push.pickTag') }).click();
  await page.getByRole('option', { name: t(en, 'push.addTag', { tag, count }) }).click();
  await expect.poll(() => page.getByText(t(en, 'push.selected', { count })).first().isVisible()).toBe(true);
}

describe.each(WIDTHS)('scripts at %s', (viewport) => {
  const tag = `e2e-scripts-${viewport}`;
  let token: string;
  let alpha: { id: number; name: string };
  let beta: { id: number; name: string };

  beforeAll(async () => {
    token = await e2e.svc.login();
    alpha = await createServer(token, `s-alpha-${viewport}`, tag);
    beta = await createServer(token, `s-beta-${viewport}`, tag);
  });

  it('saves a script, runs it on two servers with live output, survives a reload mid-run, and filters the history', { timeout: 180_000 }, async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/scripts');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'scripts.title'));
    await expectAccessible(page);

    // Write and save a script that prints a line every half second.
    const scriptName = `lines-${viewport}`;
    await page.getByRole('textbox', { name: t(en, 'scripts.name') }).fill(scriptName);
    await typeScript(page, `for i in $(seq 1 ${LINES}); do echo "line $i"; sleep 0.5; done`);
    // Tab leaves the editor for the next control (the editor does not trap it), and Shift+Tab comes back.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.cm-editor') === null)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(t(en, 'scripts.content'));
    await page.getByRole('button', { name: t(en, 'common.save') }).click();
    await page.getByText(t(en, 'scripts.saved')).waitFor();
    await page.waitForURL(/\/scripts\?script=\d+/);
    const scriptId = Number(new URL(page.url()).searchParams.get('script'));
    const stored = await e2e.svc.api<{ name: string; content: string }>('GET', `/api/scripts/${scriptId}`, undefined, { token });
    expect(stored.body).toMatchObject({ name: scriptName, content: `for i in $(seq 1 ${LINES}); do echo "line $i"; sleep 0.5; done` });
    await page.screenshot({ path: `/tmp/scripts-${viewport}-editor.png`, fullPage: true });

    // Run it on both servers of the tag.
    await pickTag(page, tag, 2);
    await page.getByRole('button', { name: t(en, 'scripts.runOn', { count: 2 }) }).click();
    await page.waitForURL(/\/scripts\/runs\/[0-9a-f-]+$/);
    const runId = decodeURIComponent(page.url().split('/').pop() as string);

    // Both outputs arrive live: each shows its first lines while the script is still printing.
    for (const s of [alpha, beta]) {
      await expect.poll(() => outText(page, s.name), { timeout: 20_000 }).toContain('line 2');
      expect(await outText(page, s.name)).not.toContain(`line ${LINES}`);
    }
    await page.screenshot({ path: `/tmp/scripts-${viewport}-live.png`, fullPage: true });

    // A reload mid-run: the page replays what it missed and carries on live.
    const run = await e2e.svc.api<{ status: string }>('GET', `/api/scripts/runs/${runId}`, undefined, { token });
    expect(run.body.status).toBe('running'); // the reload really happens mid-run
    await page.reload();
    await page.getByText(t(en, 'scripts.failedOf', { failed: 0, count: 2 })).waitFor();
    for (const s of [alpha, beta]) {
      await expect.poll(() => outText(page, s.name), { timeout: 30_000 }).toBe(EXPECTED);
      await expect.poll(() => page.getByTestId(`exit-${s.id}`).textContent(), { timeout: 30_000 }).toBe(t(en, 'scripts.exitCode', { code: 0 }));
    }
    await page.getByTestId(`server-${alpha.id}`).getByText(t(en, 'status.success'), { exact: true }).waitFor();
    await expectAccessible(page);

    // Collapse all hides every output; expand all shows them again.
    await page.getByRole('button', { name: t(en, 'scripts.collapseAll') }).click();
    await expect.poll(() => output(page, alpha.name).isVisible()).toBe(false);
    await expect.poll(() => output(page, beta.name).isVisible()).toBe(false);
    await page.getByRole('button', { name: t(en, 'scripts.expandAll') }).click();
    await expect.poll(() => output(page, alpha.name).isVisible()).toBe(true);
    await expect.poll(() => output(page, beta.name).isVisible()).toBe(true);
    // Each output can be copied.
    await page.getByRole('button', { name: t(en, 'scripts.copyOutput', { server: alpha.name }) }).waitFor();

    // Dark scheme: the same page passes axe.
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await expectAccessible(page);
    await page.screenshot({ path: `/tmp/scripts-${viewport}-run-dark.png`, fullPage: true });
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.light')}` }).click();

    // A failing script (not saved) on one server: its exit code and the failure.
    await page.goto('/scripts');
    await typeScript(page, 'echo "about to fail" >&2; exit 3');
    await page.getByRole('textbox', { name: t(en, 'servers.searchLabel') }).fill(alpha.name);
    await page.getByRole('checkbox', { name: alpha.name, exact: true }).check();
    await page.getByRole('button', { name: t(en, 'scripts.runOn', { count: 1 }) }).click();
    await page.waitForURL((u) => /\/scripts\/runs\//.test(u.pathname) && !u.pathname.endsWith(runId));
    await expect.poll(() => page.getByTestId(`exit-${alpha.id}`).textContent(), { timeout: 30_000 }).toBe(t(en, 'scripts.exitCode', { code: 3 }));
    await page.getByText(t(en, 'scripts.failedOf', { failed: 1, count: 1 })).waitFor();
    await expect.poll(() => outText(page, alpha.name)).toBe('about to fail\n');
    const failedRunId = decodeURIComponent(page.url().split('/').pop() as string);

    // The history, filtered by status.
    await page.goto('/scripts/runs');
    const history = page.getByRole('table', { name: t(en, 'scripts.tabHistory') });
    await history.waitFor();
    const link = (id: string) => history.locator(`a[href="/scripts/runs/${id}"]`);
    await expect.poll(() => link(runId).count()).toBe(1);
    await expect.poll(() => link(failedRunId).count()).toBe(1);
    await page.getByRole('combobox', { name: t(en, 'scripts.status') }).click();
    await page.getByRole('option', { name: t(en, 'status.failed'), exact: true }).click();
    await page.waitForURL(/status=failed/);
    await expect.poll(() => link(failedRunId).count()).toBe(1);
    await expect.poll(() => link(runId).count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: `/tmp/scripts-${viewport}-history.png`, fullPage: true });
    await page.getByRole('combobox', { name: t(en, 'scripts.status') }).click();
    await page.getByRole('option', { name: t(en, 'status.success'), exact: true }).click();
    await expect.poll(() => link(runId).count()).toBe(1);
    await expect.poll(() => link(failedRunId).count()).toBe(0);

    // The run opens from the history.
    await link(runId).click();
    await page.getByRole('heading', { name: t(en, 'scripts.runHeading', { label: scriptName }) }).waitFor();
    await expect.poll(() => outText(page, beta.name)).toBe(EXPECTED);
  });

  it.runIf(viewport === 'desktop')('reads in zh-CN', async () => {
    const { page } = await e2e.signedIn(viewport);
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/scripts/runs');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'scripts.title'));
    await page.getByRole('tab', { name: t(zhCN, 'scripts.tabHistory') }).waitFor();
    await expectAccessible(page);
    await page.goto('/scripts');
    await page.getByRole('button', { name: t(zhCN, 'scripts.newScript') }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: '/tmp/scripts-zh.png', fullPage: true });
  });
});
