/**
 * Notification channels against loopback stand-ins for the provider: a signed webhook channel is
 * added through the form built from its type's schema (private targets allowed for the loopback
 * fake), its test message reaches the fake with a valid `X-Signature`, a channel the provider
 * refuses shows the provider's own error text, the enable switch saves at once and delete asks
 * first. Light and dark, both widths, and zh-CN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhook } from '../helpers/fake-providers/index.js';
import { startFakeServer } from '../platform/settings/fake-http.js';
import { expectAccessible, mainHeading } from './support/browser.js';
import { en, t, zhCN } from './support/console-text.js';
import { setupE2E, WIDTHS } from './support/e2e.js';

const SECRET = 'e2e-webhook-signing-secret';
/** Checks the path and the body's HMAC signature as the webhook channel documents it. */
const hook = await startFakeWebhook({ secret: SECRET });
/** A receiver that refuses every message, in its own words. */
const refusing = await startFakeServer((_req, res) => {
  res.writeHead(403, { 'content-type': 'text/plain' });
  res.end('hook disabled by its owner');
});
afterAll(async () => {
  await hook.close();
  await refusing.close();
});

const e2e = setupE2E();
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const sentFor = (name: string) => hook.received.filter((r) => r.body.includes(name));

beforeAll(async () => {
  const token = await e2e.svc.login();
  expect((await e2e.svc.api('PUT', '/api/settings/notify_allow_private_targets', { value: 'true' }, { token })).status).toBe(200);
});

describe.each(WIDTHS)('notification channels at %s', (viewport) => {
  it('adds a channel from its form, tests it, shows a provider refusal, toggles and deletes', async () => {
    const cp = await e2e.signedIn(viewport);
    const { page } = cp;
    cp.allow(/status of 502/); // the refused test below answers 502 on purpose
    await page.goto('/channels');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'channels.title'));
    await expectAccessible(page);

    const name = `ops-hook-${viewport}`;
    await page.getByRole('button', { name: t(en, 'channels.add') }).first().click();
    const form = page.getByRole('dialog', { name: t(en, 'channels.add') });
    await form.getByRole('combobox', { name: t(en, 'channels.type'), exact: true }).click();
    await page.getByRole('option', { name: t(en, 'channels.types.webhook') }).click();
    await form.getByRole('textbox', { name: t(en, 'channels.name'), exact: true }).fill(name);
    await form.getByRole('textbox', { name: t(en, 'channels.fields.url') }).fill(`${hook.url}/hook`);
    await form.getByLabel(t(en, 'channels.fields.secret')).fill(SECRET);
    await form.getByRole('checkbox', { name: t(en, 'channels.eventNames.alert_cpu') }).check();
    await expectAccessible(page);
    await form.getByRole('button', { name: t(en, 'common.save') }).click();
    await form.waitFor({ state: 'detached' });
    // The list shows the channel, never its secret.
    await page.getByRole('button', { name: t(en, 'channels.sendTestNamed', { name }) }).waitFor();
    expect(await page.content()).not.toContain(SECRET);

    await page.getByRole('button', { name: t(en, 'channels.sendTestNamed', { name }) }).click();
    await eventually(() => sentFor(name).length).toBe(1);
    expect(hook.problems).toEqual([]);
    const row = page.getByRole('listitem').filter({ hasText: name });
    await eventually(() => row.getByTestId('channel-test-result').textContent()).toMatch(/^Delivered in \d+ ms$/);

    // A channel the provider refuses: its own words are shown.
    const token = await e2e.svc.login();
    const bad = `refused-${viewport}`;
    const created = await e2e.svc.api('POST', '/api/notification-channels', {
      type: 'webhook', name: bad, config: { url: `${refusing.url}/hook`, method: 'POST', body_format: 'json' }, events: [],
    }, { token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: t(en, 'channels.sendTestNamed', { name: bad }) }).click();
    const badRow = page.getByRole('listitem').filter({ hasText: bad });
    await eventually(() => badRow.getByTestId('channel-test-result').textContent()).toBe(t(en, 'channels.testFailed', { detail: 'HTTP 403: hook disabled by its owner' }));
    await expectAccessible(page);

    // The switch saves at once.
    const id = (created.body as { id: number }).id;
    await page.getByRole('switch', { name: t(en, 'channels.enabledNamed', { name: bad }) }).click({ force: true });
    await eventually(async () => (await e2e.svc.api<{ enabled: boolean }>('GET', `/api/notification-channels/${id}`, undefined, { token })).body.enabled).toBe(false);

    // Edit shows the token as set, without its value.
    await page.getByRole('button', { name: t(en, 'channels.editNamed', { name }) }).click();
    const edit = page.getByRole('dialog', { name: t(en, 'channels.edit', { name }) });
    await edit.getByText(t(en, 'channels.secretSet')).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });

    // Delete asks first.
    await page.getByRole('button', { name: t(en, 'channels.deleteNamed', { name: bad }) }).click();
    const confirm = page.getByRole('dialog', { name: t(en, 'channels.deleteTitle', { name: bad }) });
    await confirm.getByRole('button', { name: t(en, 'channels.deleteNamed', { name: bad }) }).click();
    await confirm.waitFor({ state: 'detached' });
    await eventually(() => page.getByRole('button', { name: t(en, 'channels.sendTestNamed', { name: bad }) }).count()).toBe(0);
    await page.screenshot({ path: `/tmp/n2-channels-${viewport}.png`, fullPage: true });
  });

  it('reads in the dark scheme', async () => {
    const { page } = await e2e.signedIn(viewport, { colorScheme: 'dark' });
    await page.goto('/channels');
    await eventually(() => mainHeading(page).textContent()).toBe(t(en, 'channels.title'));
    await page.getByRole('listitem').first().waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `/tmp/n2-channels-${viewport}-dark.png`, fullPage: true });
  });
});

describe('notification channels in Chinese', () => {
  it('shows the list and the form in zh-CN', async () => {
    const { page } = await e2e.signedIn('phone');
    await page.evaluate(() => localStorage.setItem('fleet.language', 'zh-CN'));
    await page.goto('/channels');
    await eventually(() => mainHeading(page).textContent()).toBe(t(zhCN, 'channels.title'));
    await page.getByRole('button', { name: t(zhCN, 'channels.add') }).first().click();
    const form = page.getByRole('dialog', { name: t(zhCN, 'channels.add') });
    await form.getByRole('checkbox', { name: t(zhCN, 'channels.eventNames.offline') }).waitFor();
    await form.getByRole('textbox', { name: t(zhCN, 'channels.fields.webhook_url') }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: '/tmp/n2-channels-zh-form.png', fullPage: true });
  });
});
