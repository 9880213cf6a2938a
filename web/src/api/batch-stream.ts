/**
 * A push batch as it happens: the batch's journal (GET …/events, replayed from any point) merged
 * with the live socket's messages by their sequence number, so a page that opens late, or whose
 * socket dropped for a while, shows every message exactly once and in order. Messages that arrive
 * ahead of a gap wait until the gap is fetched from the journal.
 */
import type { BatchEvent, BatchView, PushResultView } from '@server/modules/push/push.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import { push } from './endpoints';
import { followJournal } from './journal-follow';
import { pushQueries } from './resources/push';

export interface ServerProgress {
  server_id: number;
  server_name: string | null;
  status: string;
  percent: number | null;
  bytes_transferred: number;
  rate_bps: number | null;
  eta_s: number | null;
  files_transferred: number | null;
  duration_ms: number | null;
  error: string | null;
  /** `target_busy`: another batch or retry job was writing this target (`error` names it). */
  error_code: string | null;
  retry_job_id: number | null;
}

export interface BatchStream {
  /** Seq of the last message applied; later messages wait in `pending` until there is no gap. */
  lastSeq: number;
  pending: Record<number, BatchEvent>;
  status: string;
  total: number;
  succeeded: number;
  failed: number;
  skipped: number;
  operator: string | null;
  source_path: string | null;
  target_path: string | null;
  sync_mode: string | null;
  servers: Record<number, ServerProgress>;
  /** How many messages were caught up from the journal after the page had already shown some. */
  replayed: number;
}

export const emptyStream: BatchStream = {
  lastSeq: 0, pending: {}, status: 'running', total: 0, succeeded: 0, failed: 0, skipped: 0, operator: null, source_path: null,
  target_path: null, sync_mode: null, servers: {}, replayed: 0,
};

function fromResult(r: PushResultView): ServerProgress {
  return {
    server_id: r.server_id, server_name: r.server_name, status: r.status, percent: r.status === 'success' ? 100 : null,
    bytes_transferred: r.bytes_transferred, rate_bps: null, eta_s: null, files_transferred: r.files_transferred,
    duration_ms: r.duration_ms || null, error: r.error, error_code: r.error_code, retry_job_id: r.retry_job_id,
  };
}

function applyOne(s: BatchStream, e: BatchEvent): BatchStream {
  if (e.type === 'push_started' || e.type === 'push_complete') {
    return {
      ...s,
      status: e.type === 'push_complete' ? (e.status ?? s.status) : s.status,
      total: e.total ?? s.total,
      succeeded: e.succeeded ?? s.succeeded,
      failed: e.failed ?? s.failed,
      skipped: e.skipped ?? s.skipped,
      operator: e.operator ?? s.operator,
      source_path: e.source_path ?? s.source_path,
      target_path: e.target_path === undefined ? s.target_path : e.target_path,
      sync_mode: e.sync_mode ?? s.sync_mode,
    };
  }
  if (e.server_id === undefined) return s;
  const prev = s.servers[e.server_id] ?? { ...fromResult({ server_id: e.server_id, server_name: null, status: 'pending', files_transferred: 0, bytes_transferred: 0, duration_ms: 0, error: null, error_code: null, retry_job_id: null }), files_transferred: null };
  const done = e.status === 'success' || e.status === 'failed' || e.status === 'skipped';
  const next: ServerProgress = {
    ...prev,
    server_name: e.server_name ?? prev.server_name,
    status: e.status ?? prev.status,
    percent: e.status === 'success' ? 100 : (e.percent ?? prev.percent),
    bytes_transferred: e.bytes_transferred ?? prev.bytes_transferred,
    rate_bps: done ? null : (e.rate_bps ?? prev.rate_bps),
    eta_s: done ? null : (e.eta_s ?? prev.eta_s),
    files_transferred: e.files_transferred ?? prev.files_transferred,
    duration_ms: e.duration_ms ?? prev.duration_ms,
    error: e.error === undefined ? prev.error : e.error,
    error_code: e.error_code === undefined ? prev.error_code : e.error_code,
    retry_job_id: e.retry_job_id === undefined ? prev.retry_job_id : e.retry_job_id,
  };
  // Running totals between push_started and push_complete, counted from the per-server outcomes.
  const count = (status: string) => (prev.status === status ? -1 : 0) + (next.status === status ? 1 : 0);
  return {
    ...s,
    succeeded: s.succeeded + count('success'),
    failed: s.failed + count('failed'),
    skipped: s.skipped + count('skipped'),
    servers: { ...s.servers, [e.server_id]: next },
  };
}

/** Applies messages in sequence order: duplicates are dropped, messages after a gap wait. */
export function applyEvents(s: BatchStream, events: BatchEvent[], fromJournal = false): BatchStream {
  let next: BatchStream = { ...s, pending: { ...s.pending } };
  for (const e of events) if (e.seq > next.lastSeq) next.pending[e.seq] = e;
  const before = next.lastSeq;
  while (next.pending[next.lastSeq + 1]) {
    const e = next.pending[next.lastSeq + 1];
    delete next.pending[e.seq];
    next = { ...applyOne(next, e), lastSeq: e.seq, pending: next.pending };
  }
  if (fromJournal && before > 0) next.replayed += events.filter((e) => e.seq > before && e.seq <= next.lastSeq).length;
  return next;
}

/** True when messages are waiting behind a gap that only the journal can fill. */
export function hasGap(s: BatchStream): boolean {
  return Object.keys(s.pending).length > 0;
}

/** Seeds the rows from the batch's stored results (servers that have not started show as pending). */
export function seedFromBatch(s: BatchStream, b: BatchView): BatchStream {
  const servers = { ...s.servers };
  for (const r of b.results) if (!servers[r.server_id]) servers[r.server_id] = fromResult(r);
  const final = b.status !== 'running';
  return {
    ...s,
    servers: final ? Object.fromEntries(b.results.map((r) => [r.server_id, { ...servers[r.server_id], ...fromResult(r), percent: r.status === 'success' ? 100 : servers[r.server_id]?.percent ?? null }])) : servers,
    status: final ? b.status : s.status,
    total: b.total,
    succeeded: final || s.lastSeq === 0 ? b.succeeded : s.succeeded,
    failed: final || s.lastSeq === 0 ? b.failed : s.failed,
    skipped: final || s.lastSeq === 0 ? b.skipped : s.skipped,
    operator: s.operator ?? b.operator,
    source_path: s.source_path ?? b.source_path,
    sync_mode: s.sync_mode ?? b.sync_mode,
  };
}

type Action = { kind: 'events'; events: BatchEvent[]; fromJournal?: boolean } | { kind: 'batch'; batch: BatchView } | { kind: 'reset' };

function reducer(s: BatchStream, a: Action): BatchStream {
  if (a.kind === 'reset') return emptyStream;
  if (a.kind === 'batch') return seedFromBatch(s, a.batch);
  return applyEvents(s, a.events, a.fromJournal);
}

/** The live state of one batch; `error` is set when the batch cannot be read (unknown id, no access). */
export function useBatchStream(batchId: string | null): { stream: BatchStream; error: unknown } {
  const [stream, dispatch] = useReducer(reducer, emptyStream);
  const [error, setError] = useReducer((_: unknown, e: unknown) => e, null);
  const client = useQueryClient();

  useEffect(() => {
    if (!batchId) return;
    dispatch({ kind: 'reset' });
    setError(null);
    let stopped = false;
    const seed = async () => {
      const b = await push.batch(batchId);
      if (!stopped) dispatch({ kind: 'batch', batch: b });
    };
    const stop = followJournal<BatchEvent>({
      open: seed,
      page: (after) => push.events(batchId, after),
      pick: (m) => ('batch_id' in m && m.batch_id === batchId && typeof (m as BatchEvent).seq === 'number' ? (m as BatchEvent) : null),
      apply: (events, fromJournal) => dispatch({ kind: 'events', events, fromJournal }),
      isFinal: (e) => e.type === 'push_complete',
      ended: async () => {
        await seed();
        void client.invalidateQueries({ queryKey: pushQueries.all });
      },
      fail: setError,
    });
    return () => {
      stopped = true;
      stop();
    };
  }, [batchId, client]);

  return { stream, error };
}
