/**
 * In Chinese no English enum value shows: the batch page and the history list with every sync
 * mode and batch status, rendered in zh-CN from fixture data, hold none of the API's words.
 */
import type { BatchSummary } from '@server/modules/push/push.schemas';
import { screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BatchStream } from '../../src/api/batch-stream';
import { BatchLive } from '../../src/components/batch/BatchLive';
import i18n from '../../src/i18n';
import { alertTypeLabel, syncModeLabel } from '../../src/i18n/enums';
import HistoryPage from '../../src/pages/history/HistoryPage';
import { json, renderWithProviders } from '../render';
import { fakeApi } from '../pages/history/fake-api';

const fixture = vi.hoisted(() => ({ stream: null as unknown }));
vi.mock('../../src/api/batch-stream', async (orig) => ({
  ...(await orig<object>()),
  useBatchStream: () => ({ stream: fixture.stream, error: null }),
}));
vi.mock('../../src/api/socket', () => ({ liveSocket: { onMessage: () => () => {} } }));

const ENGLISH = /\b(incremental|checksum|full|partial|completed|running|cancelled|failed|success|pending|skipped)\b/i;

const server = (id: number, status: string) => ({
  server_id: id, server_name: `web-${id}`, status, percent: 100, bytes_transferred: 1024, rate_bps: null, eta_s: null,
  files_transferred: 1, duration_ms: 1200, error: null, retry_job_id: null, error_code: null,
});

beforeAll(() => i18n.changeLanguage('zh-CN'));
afterAll(() => i18n.changeLanguage('en'));

describe('enum values in zh-CN', () => {
  it.each(['incremental', 'full', 'checksum'])('the batch page of a %s push shows no English value', async (mode) => {
    fixture.stream = {
      lastSeq: 9, pending: {}, status: 'partial', total: 3, succeeded: 1, failed: 1, skipped: 1, operator: 'alice',
      source_path: '/tmp/svc_upload_site', target_path: '/srv/www', sync_mode: mode,
      servers: { 1: server(1, 'success'), 2: server(2, 'failed'), 3: server(3, 'skipped') }, replayed: 0,
    } satisfies BatchStream;
    renderWithProviders(<BatchLive batchId="b-1" onNewBatch={() => {}} />);
    await screen.findByText(/web-3/);
    const text = document.body.textContent ?? '';
    expect(text).toContain(i18n.t(`history.modes.${mode}`));
    expect(text).toContain('重试失败的 1 台');
    expect(text.replace(/\/tmp\/svc_upload_site|\/srv\/www|web-\d|alice/g, '')).not.toMatch(ENGLISH);
  });

  it('the history list with every mode and status shows no English value', async () => {
    const started = new Date(Date.now() - 180_000).toISOString();
    const b = (id: string, status: BatchSummary['status'], sync_mode: BatchSummary['sync_mode']): BatchSummary => ({
      batch_id: id, status, operator: 'alice', source_path: '/tmp/svc_upload_site', sync_mode, started_at: started,
      finished_at: status === 'running' ? null : started, total: 2, succeeded: 1, failed: 1, skipped: 0,
    });
    const items = [b('b-1', 'partial', 'incremental'), b('b-2', 'completed', 'full'), b('b-3', 'running', 'checksum'), b('b-4', 'failed', 'full'), b('b-5', 'cancelled', 'incremental')];
    fakeApi((r) => (r.path === '/api/sync/batch-summaries' ? json(200, { items, total: items.length, limit: 20, offset: 0 }) : undefined));
    renderWithProviders(<HistoryPage />, { path: '/history', route: '/history' });
    await screen.findByRole('table');
    const text = (document.body.textContent ?? '').replace(/\/tmp\/svc_upload_site|b-\d|alice/g, '');
    expect(text).not.toMatch(ENGLISH);
  });

  it('alert types and unknown values', () => {
    const t = i18n.t.bind(i18n) as (k: string, o?: Record<string, unknown>) => string;
    expect(alertTypeLabel('mem', t)).toBe('内存');
    expect(alertTypeLabel('time_drift', t)).toBe('时钟偏差');
    expect(syncModeLabel('incremental', t)).toBe('增量');
    // A value a newer service sends is shown as sent rather than hidden.
    expect(alertTypeLabel('gpu', t)).toBe('gpu');
  });
});
