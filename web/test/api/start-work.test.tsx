/** Work is sent once: a double click makes one request, with an Idempotency-Key per user action. */
import { Button } from '@mantine/core';
import type { RetryJobView } from '@server/modules/retries/retries.schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { push } from '../../src/api/endpoints';
import { saveSession } from '../../src/api/session';
import { newIdempotencyKey, useStartWork } from '../../src/api/start-work';
import RetriesPage from '../../src/pages/history/RetriesPage';
import { json, renderWithProviders } from '../render';

vi.mock('../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

interface Seen {
  method: string;
  path: string;
  key: string | null;
}

/** A stubbed fetch: POSTs wait until `release()`; every request is recorded with its Idempotency-Key. */
function stubFetch(answer: (s: Seen) => Response) {
  const seen: Seen[] = [];
  const held: Array<() => void> = [];
  saveSession({ access: 'A1', refresh: 'R1', accessExpiresAt: Date.now() + 3_600_000 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://console.test');
      const headers = (init.headers ?? {}) as Record<string, string>;
      const s = { method: init.method ?? 'GET', path: url.pathname, key: headers['idempotency-key'] ?? null };
      seen.push(s);
      if (s.method === 'POST') await new Promise<void>((resolve) => held.push(resolve));
      return answer(s);
    }),
  );
  const release = () => {
    for (const r of held.splice(0)) r();
  };
  return { seen, release };
}

function PushButton() {
  const start = useStartWork({ work: (key) => push.start({ server_ids: [1, 2, 3], source_path: '/tmp/svc_upload_site' }, key) });
  return (
    <>
      <Button loading={start.pending} onClick={() => start.start()}>
        Push to 3 servers
      </Button>
      {start.data && <p>started {start.data.batch_id}</p>}
    </>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  saveSession(null);
});

describe('useStartWork', () => {
  it('a click and a double click send one request, disabled until the answer; the next action gets a new key', async () => {
    const api = stubFetch(() => json(202, { batch_id: 'b1', status: 'running' }));
    renderWithProviders(<PushButton />);
    const button = screen.getByRole('button', { name: 'Push to 3 servers' });
    // Three clicks in one burst, before React has re-rendered: the first one only.
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(api.seen).toHaveLength(1));
    expect(api.seen[0]).toMatchObject({ method: 'POST', path: '/api/sync/files' });
    expect(api.seen[0].key).toMatch(/^[0-9a-f-]{32,36}$/);
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    await userEvent.dblClick(button, { pointerEventsCheck: 0 });
    expect(api.seen).toHaveLength(1);

    api.release();
    expect(await screen.findByText('started b1')).toBeTruthy();
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    await userEvent.click(button);
    await waitFor(() => expect(api.seen).toHaveLength(2));
    expect(api.seen[1].key).not.toBe(api.seen[0].key);
    api.release();
  });

  it('makes keys without crypto.randomUUID (a console served over plain http)', () => {
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      const a = newIdempotencyKey();
      expect(a).toMatch(/^[0-9a-f]{32}$/);
      expect(newIdempotencyKey()).not.toBe(a);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('"Retry now" double-clicked on the retry jobs page sends one retry', async () => {
    const job: RetryJobView = {
      id: 6, server_id: 3, server_name: 'db-01', operator: 'admin', source_path: '/tmp/svc_upload_site', target_path: '/srv/www',
      status: 'pending', retry_count: 1, max_retries: 3, next_retry_at: new Date(Date.now() + 300_000).toISOString(),
      last_error: 'Connection refused', created_at: new Date().toISOString(),
    };
    const api = stubFetch((s) => (s.method === 'POST' ? json(200, { ...job, next_retry_at: new Date().toISOString() }) : json(200, [job])));
    renderWithProviders(<RetriesPage />);
    const table = await screen.findByRole('table', { name: 'Retry jobs' });
    const retry = within(table).getByRole('button', { name: 'Retry now' });
    fireEvent.click(retry);
    fireEvent.click(retry);
    await waitFor(() => expect(api.seen.filter((s) => s.method === 'POST')).toHaveLength(1));
    expect(api.seen.find((s) => s.method === 'POST')).toMatchObject({ path: '/api/retries/6/retry', key: expect.stringMatching(/^[0-9a-f-]{32,36}$/) });
    api.release();
    await waitFor(() => expect(api.seen.filter((s) => s.method === 'GET' && s.path === '/api/retries').length).toBeGreaterThanOrEqual(2));
    expect(api.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });
});
