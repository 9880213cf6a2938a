import type { BatchEvent, BatchView } from '@server/modules/push/push.schemas';
import { describe, expect, it } from 'vitest';
import { applyEvents, emptyStream, hasGap, seedFromBatch } from '../../src/api/batch-stream';

const started: BatchEvent = { type: 'push_started', batch_id: 'b', seq: 1, total: 2, failed: 0, operator: 'admin', source_path: '/tmp/s', target_path: null, sync_mode: 'full' };
const run = (seq: number, server: number, extra: Partial<BatchEvent> = {}): BatchEvent => ({ type: 'push_progress', batch_id: 'b', seq, server_id: server, server_name: `s${server}`, status: 'running', ...extra });
const events: BatchEvent[] = [
  started,
  run(2, 1),
  run(3, 1, { percent: 40, bytes_transferred: 400, rate_bps: 100, eta_s: 6 }),
  run(4, 2),
  run(5, 1, { status: 'success', files_transferred: 3, bytes_transferred: 1000, duration_ms: 900, error: null }),
  run(6, 2, { status: 'failed', error: 'Connection refused', retry_job_id: 7, duration_ms: 10 }),
  { type: 'push_complete', batch_id: 'b', seq: 7, status: 'partial', total: 2, succeeded: 1, failed: 1, skipped: 0 },
];

describe('batch stream', () => {
  it('applies a batch in order into per-server progress and totals', () => {
    const s = applyEvents(emptyStream, events);
    expect([s.lastSeq, s.status, s.total, s.succeeded, s.failed, s.sync_mode, s.source_path]).toEqual([7, 'partial', 2, 1, 1, 'full', '/tmp/s']);
    expect(s.servers[1]).toEqual({
      server_id: 1, server_name: 's1', status: 'success', percent: 100, bytes_transferred: 1000, rate_bps: null, eta_s: null,
      files_transferred: 3, duration_ms: 900, error: null, error_code: null, retry_job_id: null,
    });
    expect(s.servers[2]).toMatchObject({ status: 'failed', error: 'Connection refused', retry_job_id: 7 });
  });

  it('shows rsync progress of a running server', () => {
    const s = applyEvents(emptyStream, events.slice(0, 3));
    expect(s.servers[1]).toMatchObject({ status: 'running', percent: 40, bytes_transferred: 400, rate_bps: 100, eta_s: 6 });
    expect([s.succeeded, s.failed]).toEqual([0, 0]);
  });

  it('drops duplicates and holds messages after a gap until the gap is filled', () => {
    let s = applyEvents(emptyStream, events.slice(0, 2));
    s = applyEvents(s, [events[4], events[1], events[0]]); // seq 5 arrives early; 1 and 2 again
    expect([s.lastSeq, hasGap(s), s.servers[1].status]).toEqual([2, true, 'running']);
    s = applyEvents(s, events.slice(2, 4), true); // the journal fills 3..4
    expect([s.lastSeq, hasGap(s), s.servers[1].status, s.replayed]).toEqual([5, false, 'success', 2]);
    s = applyEvents(s, events); // everything again changes nothing
    const once = applyEvents(emptyStream, events);
    expect({ ...s, replayed: 0 }).toEqual({ ...once, replayed: 0 });
  });

  it('counts outcomes once even when a server reports twice', () => {
    const s = applyEvents(emptyStream, [started, run(2, 1, { status: 'failed' }), run(3, 1, { status: 'failed' })]);
    expect(s.failed).toBe(1);
  });

  it('seeds pending servers from the stored batch and takes its final totals', () => {
    const batch: BatchView = {
      batch_id: 'b', status: 'running', operator: 'admin', source_path: '/tmp/s', sync_mode: 'incremental', started_at: '2026-11-25T00:00:00Z',
      finished_at: null, total: 2, succeeded: 0, failed: 0, skipped: 0,
      results: [1, 2].map((id) => ({ server_id: id, server_name: `s${id}`, status: 'pending' as const, files_transferred: 0, bytes_transferred: 0, duration_ms: 0, error: null, error_code: null, retry_job_id: null })),
    };
    const s = seedFromBatch(emptyStream, batch);
    expect(Object.values(s.servers).map((x) => [x.server_name, x.status])).toEqual([['s1', 'pending'], ['s2', 'pending']]);
    const done = seedFromBatch(applyEvents(s, events.slice(0, 3)), { ...batch, status: 'cancelled', skipped: 1, succeeded: 1, results: [
      { ...batch.results[0], status: 'success', files_transferred: 3, bytes_transferred: 10, duration_ms: 5 },
      { ...batch.results[1], status: 'skipped' },
    ] });
    expect([done.status, done.succeeded, done.skipped, done.servers[1].status, done.servers[1].percent, done.servers[2].status]).toEqual([
      'cancelled', 1, 1, 'success', 100, 'skipped',
    ]);
  });
});

describe('batch stream: busy targets', () => {
  it('keeps the error code of a server refused because its target is busy', () => {
    const s = applyEvents(emptyStream, [
      { type: 'push_started', batch_id: 'b', seq: 1, total: 1, failed: 1 },
      { type: 'push_progress', batch_id: 'b', seq: 2, server_id: 4, status: 'failed', error: 'target /srv/app is being written by batch a1', error_code: 'target_busy', retry_job_id: null },
    ]);
    expect(s.servers[4]).toMatchObject({ status: 'failed', error: 'target /srv/app is being written by batch a1', error_code: 'target_busy', retry_job_id: null });
  });
});
