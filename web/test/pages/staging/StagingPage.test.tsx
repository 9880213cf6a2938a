/**
 * The staging page: directories by their ZIP (name, size, file count), "Push this" into the push
 * flow, bulk delete by selection, and a browsed folder whose files preview as text or as binary.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import StagingPage from '../../../src/pages/staging/StagingPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

const recent = new Date(Date.now() - 180_000).toISOString();
const DIRS = {
  truncated: false,
  items: [
    { path: '/tmp/svc_upload_abc', name: 'svc_upload_abc', modified: recent, entries: 2, zip: { filename: 'release-42.zip', size: 2_202_009, uploaded_at: recent, file_count: 7 } },
    { path: '/tmp/svc_upload_hand', name: 'svc_upload_hand', modified: new Date(Date.now() - 30 * 86_400_000).toISOString(), entries: 3, zip: null },
  ],
};
const b64 = (s: string | number[]) => btoa(typeof s === 'string' ? s : String.fromCharCode(...s));

function api() {
  return fakeApi((r) => {
    if (r.path === '/api/sync/staging-dirs') return json(200, DIRS);
    if (r.path === '/api/sync/staging-dirs/delete') return json(200, { deleted: ['/tmp/svc_upload_hand'], missing: [] });
    if (r.path === '/api/sync/browse-local') return json(200, { path: '/tmp/svc_upload_abc', entries: [{ name: 'conf', is_dir: true, size: 0 }, { name: 'logo.png', is_dir: false, size: 5000 }, { name: 'readme.txt', is_dir: false, size: 12 }] });
    if (r.path === '/api/sync/local-file-preview') {
      const text = (r.body as { path: string }).path.endsWith('.txt');
      return json(200, text
        ? { name: 'readme.txt', size: 12, content_base64: b64('hello staging'), truncated: false, encoding_hint: 'text' }
        : { name: 'logo.png', size: 5000, content_base64: b64([0x89, 0x50, 0x4e, 0x47]), truncated: true, encoding_hint: 'binary' });
    }
    if (r.path === '/api/sync/local-file-ops') return json(200, { success: true, operation: 'mkdir', path: (r.body as { path: string }).path });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('StagingPage', () => {
  it('lists directories by their ZIP with size and file count, and "Push this" opens the push flow with it chosen', async () => {
    api();
    renderWithProviders(<StagingPage />, { path: '/staging', route: '/staging/*' });
    const table = await screen.findByRole('table', { name: 'Staging directories' });
    const row = within(table).getByRole('link', { name: 'Browse release-42.zip' }).closest('tr')!;
    expect(row.textContent).toContain('2.1 MiB');
    expect(row.textContent).toContain('7 files');
    expect(within(table).getByRole('link', { name: 'Browse svc_upload_hand' }).closest('tr')!.textContent).toContain('3 entries');
    const push = within(row).getByRole('link', { name: 'Push this: release-42.zip' });
    const url = new URL(push.getAttribute('href')!, 'http://x');
    expect([url.pathname, url.searchParams.get('source'), url.searchParams.get('step')]).toEqual(['/push', '/tmp/svc_upload_abc', 'servers']);
  });

  it('deletes the selected directories in one request after the count is typed', async () => {
    const sent = api();
    renderWithProviders(<StagingPage />, { path: '/staging', route: '/staging/*' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select svc_upload_hand' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete 1 directory' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete 1 directory' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(dialog).getByRole('textbox'), '1');
    await userEvent.click(confirm);
    await waitFor(() => expect(sent.find((r) => r.path === '/api/sync/staging-dirs/delete')?.body).toEqual({ names: ['svc_upload_hand'] }));
    expect(await screen.findByText(/Deleted 1 directory\./)).toBeTruthy();
  });

  it('offers to delete directories older than N days, counting them first', async () => {
    const sent = api();
    renderWithProviders(<StagingPage />, { path: '/staging', route: '/staging/*' });
    expect(await screen.findByText('1 directory is older than that.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete old directories' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox'), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete 1 directory' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/api/sync/staging-dirs/delete')?.body).toEqual({ older_than_days: 7 }));
  });

  it('browses a folder: text previews as text, binary is said to be binary; a new folder is made inside it', async () => {
    const sent = api();
    renderWithProviders(<StagingPage />, { path: '/staging/browse?path=%2Ftmp%2Fsvc_upload_abc', route: '/staging/*' });
    expect(await screen.findByRole('heading', { name: 'Staging: release-42.zip' })).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Preview readme.txt' }));
    expect(await screen.findByText('hello staging')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('hello staging')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Preview logo.png' }));
    expect(await screen.findByText('Binary file (4.9 KiB): it is not shown as text.')).toBeTruthy();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getAllByRole('button', { name: 'New folder' })[0]!);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Folder name' }), 'assets');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/api/sync/local-file-ops')?.body).toEqual({ path: '/tmp/svc_upload_abc/assets', operation: 'mkdir' }));
  });
});
