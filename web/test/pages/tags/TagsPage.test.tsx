/**
 * The tags page: counts, links to the filtered servers list and the push flow, rename (a merge
 * into a tag in use only after its own confirmation) and removal.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import TagsPage from '../../../src/pages/tags/TagsPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi } from '../history/fake-api';

function api() {
  return fakeApi((r) => {
    if (r.path === '/api/servers/tags') return json(200, [{ tag: 'web', count: 3 }, { tag: 'prod env', count: 1 }]);
    if (r.path === '/api/servers/tags/rename') {
      const b = r.body as { from: string; to: string; merge: boolean };
      // 'newcomer' is not listed yet: another operator added it since the list was read.
      if ((b.to === 'prod env' || b.to === 'newcomer') && !b.merge) return json(409, { detail: 'exists', code: 'tag_exists' });
      return json(200, { from: b.from, to: b.to, servers: 3, merged: b.merge ? 1 : 0 });
    }
    if (r.method === 'DELETE' && r.path.startsWith('/api/servers/tags/')) return json(200, { from: decodeURIComponent(r.path.split('/').pop()!), to: null, servers: 1, merged: 0 });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('TagsPage', () => {
  it('shows each tag with its server count, linking to the filtered servers list and the push flow', async () => {
    api();
    renderWithProviders(<TagsPage />);
    const table = await screen.findByRole('table', { name: 'Tags' });
    expect(within(table).getByRole('link', { name: '3 servers: web' }).textContent).toBe('3');
    expect(within(table).getByRole('link', { name: 'Servers tagged prod env' }).getAttribute('href')).toBe('/servers?tag=prod+env');
    expect(within(table).getByRole('link', { name: 'Push to this tag: prod env' }).getAttribute('href')).toBe('/push?tag=prod+env');
  });

  it.each([
    ['a listed tag: asked at once', 'prod env', [true]],
    ['a tag added meanwhile: asked after the service refuses', 'newcomer', [false, true]],
  ])('renaming onto %s, then merged', async (_what, to, merges) => {
    const sent = api();
    renderWithProviders(<TagsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename the tag web' }));
    const input = await screen.findByRole('textbox', { name: 'New name' });
    await userEvent.clear(input);
    await userEvent.type(input, to as string);
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const merge = await screen.findByRole('button', { name: 'Merge' });
    expect(screen.getByText(/Merge web into it\?/)).toBeTruthy();
    await userEvent.click(merge);
    await waitFor(() => expect(sent.filter((r) => r.path === '/api/servers/tags/rename').map((r) => r.body)).toEqual(
      (merges as boolean[]).map((merge) => ({ from: 'web', to, merge })),
    ));
    expect(await screen.findByText(`Renamed web to ${to} on 3 servers.`)).toBeTruthy();
  });

  it('renames a tag onto a new name in one request', async () => {
    const sent = api();
    renderWithProviders(<TagsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename the tag web' }));
    const input = await screen.findByRole('textbox', { name: 'New name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'frontend');
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Renamed web to frontend on 3 servers.')).toBeTruthy();
    expect(sent.filter((r) => r.path === '/api/servers/tags/rename').map((r) => r.body)).toEqual([{ from: 'web', to: 'frontend', merge: false }]);
  });

  it('removes a tag after confirming, naming how many servers it leaves', async () => {
    const sent = api();
    renderWithProviders(<TagsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the tag prod env' }));
    expect(await screen.findByText('Remove the tag prod env from 1 server? The server stays.')).toBeTruthy();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'DELETE' && r.path === '/api/servers/tags/prod%20env')).toBe(true));
    expect(await screen.findByText('Removed prod env from 1 server.')).toBeTruthy();
  });
});
