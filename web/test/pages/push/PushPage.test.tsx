/**
 * The push flow keeps its step and choices in the URL and moves focus to the new step's heading;
 * the source step shows the service's ZIP limits before a file is chosen and names staging
 * directories by their ZIP, with their files viewable.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import { RelativeTime } from '../../../src/components/Time';
import PushPage from '../../../src/pages/push/PushPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

vi.mock('../../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

const LIMITS = { zip_max_bytes: 500 * 1024 * 1024, zip_max_uncompressed: 2 * 1024 ** 3, zip_max_entries: 100_000, zip_listing_max: 500, upload_max_bytes: 100 * 1024 * 1024 };
const DIRS = {
  truncated: false,
  items: [
    { path: '/tmp/svc_upload_abc', name: 'svc_upload_abc', modified: new Date().toISOString(), entries: 2, zip: { filename: 'release-42.zip', size: 2_202_009, uploaded_at: new Date(Date.now() - 180_000).toISOString() } },
    { path: '/tmp/svc_upload_hand', name: 'svc_upload_hand', modified: new Date().toISOString(), entries: 0, zip: null },
  ],
};
const server = (id: number, name: string) => ({ id, name, host: `10.0.0.${id}`, port: 22, status: 'online', tags: [] });

function api() {
  return fakeApi((r) => {
    if (r.path === '/api/sync/limits') return json(200, LIMITS);
    if (r.path === '/api/sync/staging-dirs') return json(200, DIRS);
    if (r.path === '/api/sync/browse-local') return json(200, { path: '/tmp/svc_upload_abc', entries: [{ name: 'conf', is_dir: true, size: 0 }, { name: 'index.html', is_dir: false, size: 2048 }] });
    if (r.path === '/api/servers/tags') return json(200, []);
    if (r.path === '/api/servers/search') return json(200, { items: [server(1, 'web-01'), server(3, 'web-03')], total: 2, limit: 25, offset: 0 });
    if (/^\/api\/servers\/\d+$/.test(r.path)) return json(200, server(Number(r.path.split('/').pop()), `web-0${r.path.split('/').pop()}`));
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('PushPage', () => {
  it('shows the service ZIP limits and the staging directories by their ZIP, with their files on demand', async () => {
    const sent = api();
    renderWithProviders(<PushPage />, { path: '/push' });
    expect(await screen.findByText('At most 500 MiB per ZIP and 2.0 GiB once extracted.')).toBeTruthy();
    expect(await screen.findByText('release-42.zip')).toBeTruthy();
    expect(screen.getByText(/^2\.1 MiB ·/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'release-42.zip /tmp/svc_upload_abc' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '/tmp/svc_upload_hand' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'View files: release-42.zip' }));
    const list = await screen.findByRole('list', { name: 'Files in release-42.zip' });
    expect(list.textContent).toContain('conf/');
    expect(list.textContent).toContain('index.html · 2.0 KiB');
    expect(sent.find((r) => r.path === '/api/sync/browse-local')?.body).toEqual({ path: '/tmp/svc_upload_abc' });
    expect(screen.getByRole('button', { name: 'Hide files: release-42.zip' }).getAttribute('aria-expanded')).toBe('true');
    expect((screen.getByRole('radio', { name: 'release-42.zip /tmp/svc_upload_abc' }) as HTMLInputElement).checked).toBe(false);
  });

  it('a URL with a step and a selection opens that step with it; Back and Next move focus to the step heading', async () => {
    api();
    renderWithProviders(<PushPage />, { path: '/push?step=preview&source=%2Ftmp%2Fsvc_upload_abc&servers=3,1&mode=checksum&target=%2Fsrv%2Fapp' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Step 3 of 3: Preview' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Push to 2 servers' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Target path/ }) as HTMLInputElement).value).toBe('/srv/app');
    // Opening a link does not steal focus; moving between steps does.
    expect(document.activeElement?.tagName).not.toBe('H2');

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 2 of 3: Servers'));
    expect(screen.getAllByText('2 selected').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 3 of 3: Preview'));
  });

  it('a step the URL asks for without what it needs falls back to the first step missing something', async () => {
    api();
    renderWithProviders(<PushPage />, { path: '/push?step=preview&servers=1' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Step 1 of 3: Source' })).toBeTruthy();
  });
});

describe('RelativeTime', () => {
  it('is not a tab stop; the exact time is its title', () => {
    renderWithProviders(<RelativeTime value="2026-01-02T03:04:05Z" />);
    const time = document.querySelector('time') as HTMLElement;
    expect(time.hasAttribute('tabindex')).toBe(false);
    expect(time.getAttribute('title')).toMatch(/2026/);
    expect(time.getAttribute('datetime')).toBe('2026-01-02T03:04:05Z');
  });
});
