/** Retry jobs: why each failed, when it runs next, "Retry now", and deleting behind a confirmation. */
import type { RetryJobView } from '@server/modules/retries/retries.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../src/api/session';
import RetriesPage from '../../../src/pages/history/RetriesPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi, type Sent } from './fake-api';

vi.mock('../../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

function job(over: Partial<RetryJobView> = {}): RetryJobView {
  return {
    id: 6,
    server_id: 3,
    server_name: 'db-01',
    operator: 'admin',
    source_path: '/tmp/svc_upload_site',
    target_path: '/srv/www',
    status: 'pending',
    retry_count: 1,
    max_retries: 3,
    next_retry_at: new Date(Date.now() + 5 * 60_000 + 30_000).toISOString(),
    last_error: 'Connection refused by 10.0.0.3:22',
    created_at: new Date(Date.now() - 3_600_000).toISOString(),
    ...over,
  };
}

const lists = (sent: Sent[]) => sent.filter((r) => r.method === 'GET' && r.path === '/api/retries');

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('RetriesPage', () => {
  it('lists each job with its server, status, attempts, next attempt and last error', async () => {
    fakeApi((r) =>
      r.path === '/api/retries'
        ? json(200, [job(), job({ id: 5, server_name: 'web-02', status: 'failed', retry_count: 3, next_retry_at: null, last_error: 'Permission denied' })])
        : undefined,
    );
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });
    for (const h of ['Server', 'Source', 'Status', 'Attempts', 'Next attempt', 'Last error']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeTruthy();
    }
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first).getByText('db-01')).toBeTruthy();
    expect(within(first).getAllByText('Pending').length).toBeGreaterThan(0);
    expect(within(first).getAllByText(/1 of 3/).length).toBeGreaterThan(0);
    expect(within(first).getAllByText('in 5 min.').length).toBeGreaterThan(0);
    expect(within(first).getAllByText('Connection refused by 10.0.0.3:22').length).toBeGreaterThan(0);
    expect(within(second).getAllByText('Failed').length).toBeGreaterThan(0);
    expect(within(second).getAllByText(/3 of 3/).length).toBeGreaterThan(0);
  });

  it('shows what a job pushes: its source and target', async () => {
    fakeApi((r) => (r.path === '/api/retries' ? json(200, [job()]) : undefined));
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });
    expect(within(table).getByText('/tmp/svc_upload_site → /srv/www')).toBeTruthy();
  });

  it('retries a job now and shows its new state', async () => {
    let reset = false;
    const sent = fakeApi((r) => {
      if (r.method === 'POST' && r.path === '/api/retries/6/retry') {
        reset = true;
        return json(200, job({ retry_count: 0, next_retry_at: null, last_error: null }));
      }
      if (r.path === '/api/retries') return json(200, [reset ? job({ retry_count: 0, next_retry_at: null, last_error: null }) : job()]);
      return undefined;
    });
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });
    await userEvent.click(within(table).getByRole('button', { name: 'Retry now' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST' && r.path === '/api/retries/6/retry')).toBe(true));
    await waitFor(() => expect(lists(sent)).toHaveLength(2));
    expect((await within(table).findAllByText('Due now')).length).toBeGreaterThan(0);
  });

  it('deletes a job only after the confirmation', async () => {
    let deleted = false;
    const sent = fakeApi((r) => {
      if (r.method === 'DELETE' && r.path === '/api/retries/6') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      if (r.path === '/api/retries') return json(200, deleted ? [] : [job()]);
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });

    await user.click(within(table).getByRole('button', { name: 'Delete job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete job' });
    expect(within(dialog).getByText('Delete the retry job of db-01? It will not be tried again.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);

    await user.click(within(table).getByRole('button', { name: 'Delete job' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete job' })).getByRole('button', { name: 'Delete job' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/retries/6']));
    expect(await screen.findByText('No retry jobs. Failed servers of a push get one.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View push history' }).getAttribute('href')).toBe('/history');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cannot retry a job that is running', async () => {
    fakeApi((r) => (r.path === '/api/retries' ? json(200, [job({ status: 'running' })]) : undefined));
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });
    expect(within(table).getByRole('button', { name: 'Retry now' })).toHaveProperty('disabled', true);
  });

  it('shows the API’s refusal', async () => {
    fakeApi((r) => (r.path === '/api/retries' ? json(500, { detail: 'Internal server error' }) : undefined));
    renderWithProviders(<RetriesPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('Internal server error');
  });
});
