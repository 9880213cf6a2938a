/** The push history: rows that link to their batch, paging in the URL, live refetches. */
import type { BatchSummary, BatchSummaryPage } from '@server/modules/push/push.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../../src/api/socket';
import { saveSession } from '../../../src/api/session';
import HistoryPage, { changesBatches } from '../../../src/pages/history/HistoryPage';
import { json, renderWithProviders } from '../../render';
import { fakeApi, type Sent } from './fake-api';

// The page listens to the tab's live socket; here the test delivers its messages.
const live = vi.hoisted(() => ({ listeners: new Set<(m: unknown) => void>() }));
vi.mock('../../../src/api/socket', () => ({
  liveSocket: {
    onMessage: (l: (m: unknown) => void) => {
      live.listeners.add(l);
      return () => live.listeners.delete(l);
    },
  },
}));
const emit = (m: Partial<LiveMessage>) => {
  for (const l of live.listeners) l(m);
};

const MIN = 60_000;

function batch(over: Partial<BatchSummary> = {}): BatchSummary {
  const started = Date.now() - 3 * MIN;
  return {
    batch_id: 'b-0001',
    status: 'partial',
    operator: 'alice',
    source_path: '/tmp/svc_upload_site',
    sync_mode: 'incremental',
    started_at: new Date(started).toISOString(),
    finished_at: new Date(started + 72_000).toISOString(),
    total: 4,
    succeeded: 3,
    failed: 1,
    skipped: 0,
    ...over,
  };
}

function page(items: BatchSummary[], total = items.length, offset = 0): BatchSummaryPage {
  return { items, total, limit: 20, offset };
}

function Where() {
  const l = useLocation();
  return <output aria-label="location">{`${l.pathname}${l.search}`}</output>;
}

function renderHistory(path = '/history') {
  return renderWithProviders(
    <>
      <HistoryPage />
      <Where />
    </>,
    { path, route: '/history', routes: { '/history/:id': <p>Batch page</p> } },
  );
}

const summaryRequests = (sent: Sent[]) => sent.filter((r) => r.path === '/api/sync/batch-summaries');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('HistoryPage', () => {
  it('lists batches with their result in words, each linking to its batch', async () => {
    fakeApi((r) => (r.path === '/api/sync/batch-summaries' ? json(200, page([batch(), batch({ batch_id: 'b-0002', status: 'completed', succeeded: 2, failed: 0, total: 2, sync_mode: 'full', operator: null })])) : undefined));
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Push batches' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    for (const h of ['Started', 'Operator', 'Source', 'Mode', 'Result', 'Servers', 'Duration']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeTruthy();
    }
    const first = within(rows[1]);
    expect(first.getByRole('link', { name: '3 min. ago' }).getAttribute('href')).toBe('/history/b-0001');
    expect(first.getByText('Partial')).toBeTruthy();
    expect(first.getByText('3 ok · 1 failed')).toBeTruthy();
    expect(first.getAllByText('1m 12s').length).toBeGreaterThan(0);
    expect(first.getByText('/tmp/svc_upload_site')).toBeTruthy();
    expect(within(rows[2]).getByText('2 ok')).toBeTruthy();
    expect(within(rows[2]).getAllByText('Full').length).toBeGreaterThan(0);

    await userEvent.click(first.getByRole('link', { name: '3 min. ago' }));
    expect(await screen.findByText('Batch page')).toBeTruthy();
  });

  it('keeps the page and the status filter in the URL', async () => {
    const sent = fakeApi((r) =>
      r.path === '/api/sync/batch-summaries' ? json(200, page([batch({ batch_id: `b-${r.query.get('offset')}` })], 45, Number(r.query.get('offset')))) : undefined,
    );
    renderHistory('/history?page=2&status=partial');
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    expect(Object.fromEntries(summaryRequests(sent)[0].query)).toEqual({ limit: '20', offset: '20', status: 'partial' });

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Page 3 of 3')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/history?page=3&status=partial');
    expect(summaryRequests(sent).at(-1)?.query.get('offset')).toBe('40');
    expect(screen.getByRole('button', { name: /Next/ })).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('button', { name: /Previous/ }));
    await userEvent.click(screen.getByRole('button', { name: /Previous/ }));
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/history?status=partial');
    expect(summaryRequests(sent).at(-1)?.query.get('offset')).toBe('0');
  });

  it('refetches when a push starts or finishes on the live socket', async () => {
    let n = 0;
    const sent = fakeApi((r) => {
      if (r.path !== '/api/sync/batch-summaries') return undefined;
      n++;
      return json(200, page(n === 1 ? [batch()] : [batch({ batch_id: 'b-new', operator: 'bob' }), batch()]));
    });
    renderHistory();
    await screen.findByRole('table', { name: 'Push batches' });
    expect(summaryRequests(sent)).toHaveLength(1);

    // A transfer update changes nothing the list shows.
    emit({ type: 'push_progress', batch_id: 'b-new', seq: 2, status: 'running', percent: 40 });
    await new Promise((r) => setTimeout(r, 700));
    expect(summaryRequests(sent)).toHaveLength(1);

    emit({ type: 'push_started', batch_id: 'b-new', seq: 1 });
    await waitFor(() => expect(summaryRequests(sent)).toHaveLength(2));
    expect(await screen.findByText('b-new')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Push batches' })).getAllByRole('row')).toHaveLength(3);
  });

  it('polls every 15 s while a batch is running, and not otherwise', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let running = true;
    const sent = fakeApi((r) =>
      r.path === '/api/sync/batch-summaries' ? json(200, page([batch(running ? { status: 'running', finished_at: null } : {})])) : undefined,
    );
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Push batches' });
    expect(within(table).getByText('Running')).toBeTruthy();
    expect(summaryRequests(sent)).toHaveLength(1);
    running = false;
    await vi.advanceTimersByTimeAsync(15_000);
    await waitFor(() => expect(summaryRequests(sent)).toHaveLength(2));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Push batches' })).getByText('Partial')).toBeTruthy());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(summaryRequests(sent)).toHaveLength(2);
  });

  it('says when there is nothing yet', async () => {
    fakeApi((r) => (r.path === '/api/sync/batch-summaries' ? json(200, page([])) : undefined));
    renderHistory();
    expect(await screen.findByText('No pushes yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    // The next step is a push.
    expect(screen.getByRole('link', { name: 'Start a push' }).getAttribute('href')).toBe('/push');
  });

  it('with a status filter and nothing matching, offers to show every status', async () => {
    fakeApi((r) => (r.path === '/api/sync/batch-summaries' ? json(200, page([])) : undefined));
    renderHistory('/history?status=failed');
    expect(await screen.findByText('No batch has this status.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Any status' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/history'));
  });
});

describe('changesBatches', () => {
  it('is true for a start, a finish and a server done, false for transfer updates and alerts', () => {
    expect(changesBatches({ type: 'push_started', batch_id: 'b', seq: 1 })).toBe(true);
    expect(changesBatches({ type: 'push_complete', batch_id: 'b', seq: 9 })).toBe(true);
    expect(changesBatches({ type: 'push_progress', batch_id: 'b', seq: 3, status: 'failed' })).toBe(true);
    expect(changesBatches({ type: 'push_progress', batch_id: 'b', seq: 2, status: 'running' })).toBe(false);
    expect(changesBatches({ type: 'alert', id: 1, server_id: 1, server_name: 'a', alert_type: 'cpu', value: 95 })).toBe(false);
  });
});
