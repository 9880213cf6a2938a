/** Stored batch rows as the API shows them. */
import type { PushBatchRow, PushResultRow } from '../../db/types.js';
import type { BatchSummary, BatchView } from './push.schemas.js';

export function summaryOf(b: PushBatchRow): BatchSummary {
  const { results: _none, ...summary } = toBatchView(b, []);
  return summary;
}

export function toBatchView(b: PushBatchRow, results: PushResultRow[]): BatchView {
  return {
    batch_id: b.batch_id,
    status: b.status,
    operator: b.operator,
    source_path: b.source_path,
    sync_mode: b.sync_mode,
    started_at: b.started_at,
    finished_at: b.finished_at,
    total: Number(b.total),
    succeeded: Number(b.succeeded),
    failed: Number(b.failed),
    skipped: Number(b.skipped),
    results: results.map((r) => ({
      server_id: r.server_id,
      server_name: r.server_name,
      status: r.status,
      files_transferred: Number(r.files_transferred),
      bytes_transferred: Number(r.bytes_transferred),
      duration_ms: Number(r.duration_ms),
      error: r.error,
      error_code: r.error_code,
      retry_job_id: r.retry_job_id,
    })),
  };
}
