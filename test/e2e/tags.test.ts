/**
 * The tags page in the browser against the real service: tags with their server counts; a rename
 * (servers then carry the new tag), a merge into a tag in use (after its own confirmation), a
 * removal; a tag opens the servers list filtered by it, and "push to this tag" lands on the push
 * flow with the tag's servers chosen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const e2e = setupE2E();

async function createServer(token: string, name: string, tags: string[]): Promise<number> {
  const s = e2e.sshd;
  const res = await e2e.svc.api<{ id: number }>(
    'POST',
    '/api/servers',
    { name, host: s.host, port: s.port, username: s.username, auth_type: 'key', private_key: s.privateKey, tags },
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function tagsOf(token: string, id: number): Promise<string[]> {
  return (await e2e.svc.api<{ tags: string[] }>('GET', `/api/servers/${id}`, undefined, { token })).body.tags;
}

const dialog = (page: Page) => page.getByRole('dialog');
/** The count a row shows: its own column on a desktop, "2 servers" under the tag on a phone. */
async function shownCount(page: Page, tag: string): Promise<string> {
  const row = tagRow(page, tag);
  const link = row.getByRole('link', { name: new RegExp(`^\\d[^:]*: ${tag}$`) });
  if (await link.count()) return `${await link.getAttribute('aria-label')} [${await link.textContent()}]`;
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown: the phone's count line is hidden on a desktop
  return row.innerText();
}
const countText = (viewport: string, count: number, tag: string) =>
  viewport === 'desktop' ? `${t(en, 'tags.serverCount', { count })}: ${tag} [${count}]` : t(en, 'tags.serverCount', { count });
const tagRow = (page: Page, tag: string) =>
  page.getByRole('table', { name: t(en, 'tags.listLabel') }).getByRole('row').filter({ has: page.getByRole('link', { name: t(en, 'tags.showServers', { tag }), exact: true }) });

describe.each(WIDTHS)('tags at %s', (viewport) => {
  it('shows counts; renames, merges and removes tags across servers', async () => {
    const token = await e2e.svc.login();
    const [web, app, db] = [`web-${viewport}`, `app-${viewport}`, `db-${viewport}`];
    const one = await createServer(token, `tg-one-${viewport}`, [web, app]);
    const two = await createServer(token, `tg-two-${viewport}`, [web]);
    const three = await createServer(token, `tg-three-${viewport}`, [db]);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/tags');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(en, 'tags.title'));
    await expect.poll(() => tagRow(page, web).count()).toBe(1);
    expect(await shownCount(page, web)).toContain(countText(viewport, 2, web));
    expect(await shownCount(page, db)).toContain(countText(viewport, 1, db));
    await expectAccessible(page);

    // Rename: both servers carry the new name.
    const front = `front-${viewport}`;
    await tagRow(page, web).getByRole('button', { name: t(en, 'tags.renameTag', { tag: web }) }).click();
    await dialog(page).getByRole('textbox', { name: t(en, 'tags.newName') }).fill(front);
    await expectAccessible(page);
    await dialog(page).getByRole('button', { name: t(en, 'tags.rename') }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: t(en, 'tags.renamed', { from: web, to: front, count: 2 }) }).count()).toBe(1);
    await expect.poll(() => tagRow(page, front).count()).toBe(1);
    expect(await tagRow(page, web).count()).toBe(0);
    expect(await tagsOf(token, one)).toEqual([front, app]);
    expect(await tagsOf(token, two)).toEqual([front]);

    // Renaming onto a tag in use asks before merging.
    await tagRow(page, db).getByRole('button', { name: t(en, 'tags.renameTag', { tag: db }) }).click();
    await dialog(page).getByRole('textbox', { name: t(en, 'tags.newName') }).fill(app);
    await dialog(page).getByRole('button', { name: t(en, 'tags.rename') }).click();
    await expect.poll(() => dialog(page).getByText(t(en, 'tags.mergeConfirm', { from: db, to: app })).count()).toBe(1);
    await dialog(page).getByRole('button', { name: t(en, 'tags.merge') }).click();
    await expect.poll(() => shownCount(page, app)).toContain(countText(viewport, 2, app));
    expect(await tagsOf(token, three)).toEqual([app]);

    // Remove: the servers stay, without the tag.
    await tagRow(page, app).getByRole('button', { name: t(en, 'tags.removeTag', { tag: app }) }).click();
    await expect.poll(() => dialog(page).getByText(t(en, 'tags.removeConfirm', { tag: app, count: 2 })).count()).toBe(1);
    await dialog(page).getByRole('button', { name: t(en, 'tags.remove') }).click();
    await expect.poll(() => tagRow(page, app).count()).toBe(0);
    expect(await tagsOf(token, one)).toEqual([front]);
    expect(await tagsOf(token, three)).toEqual([]);
    expect((await e2e.svc.api('GET', `/api/servers/${three}`, undefined, { token })).status).toBe(200);
  });

  it('opens the servers list filtered by a tag, and the push flow with its servers chosen', async () => {
    const token = await e2e.svc.login();
    const tag = `edge-${viewport}`;
    const a = await createServer(token, `edge-a-${viewport}`, [tag]);
    const b = await createServer(token, `edge-b-${viewport}`, [tag, 'other']);
    await createServer(token, `plain-${viewport}`, ['other']);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/tags');
    await tagRow(page, tag).getByRole('link', { name: t(en, 'tags.showServers', { tag }) }).click();
    await page.waitForURL((u) => u.pathname === '/servers' && u.searchParams.get('tag') === tag);
    const servers = page.getByRole('table', { name: t(en, 'servers.title') });
    await expect.poll(() => servers.getByRole('link', { name: `edge-a-${viewport}` }).count()).toBe(1);
    expect(await servers.getByRole('link', { name: `edge-b-${viewport}` }).count()).toBe(1);
    expect(await servers.getByRole('link', { name: `plain-${viewport}` }).count()).toBe(0);

    await page.goto('/tags');
    await tagRow(page, tag).getByRole('link', { name: t(en, 'tags.pushToTag', { tag }) }).click();
    await page.waitForURL((u) => u.pathname === '/push');
    // The tag resolves to its servers, which stay chosen in the URL.
    await expect.poll(() => new URL(page.url()).searchParams.get('servers')).toBe([a, b].sort((x, y) => x - y).join(','));
    expect(new URL(page.url()).searchParams.get('tag')).toBeNull();
    await expectAccessible(page);
  });

  it('passes axe in dark, and reads in Chinese', async () => {
    const token = await e2e.svc.login();
    await createServer(token, `look-${viewport}`, [`look-${viewport}`]);
    const { page } = await e2e.signedIn(viewport);
    await page.goto('/tags');
    await page.getByRole('button', { name: `${t(en, 'header.theme')}: ${t(en, 'header.dark')}` }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await expect.poll(() => tagRow(page, `look-${viewport}`).count()).toBe(1);
    await expectAccessible(page);

    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/tags');
    await expect.poll(() => mainHeading(page).textContent()).toBe(t(zhCN, 'tags.title'));
    await expect.poll(() => page.getByRole('link', { name: t(zhCN, 'tags.pushToTag', { tag: `look-${viewport}` }) }).count()).toBe(1);
    await expectAccessible(page);
  });
});
