import { Type, type Static } from 'typebox';
import { BatchStatus, ResultStatus, SyncModeSchema, type SyncMode } from '../../core/column-values.js';
import { Id, ID_MAX, Nullable } from '../../http/schemas.js';
import { PushEvent } from '../../platform/events/live-events.schemas.js';


export const BATCH_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const BatchId = Type.String({ pattern: BATCH_ID_PATTERN, minLength: 1, maxLength: 64 });

/** Server ids are SQL `integer`; larger values would be a database error, not a clean 422. */
export const ServerId = Id;
export const ServerIds = Type.Array(ServerId, { minItems: 1, maxItems: 5000 });

export const LocalPath = Type.String({ minLength: 1, maxLength: 4096 });
export const RemotePath = Type.String({ maxLength: 4096 });

export const SyncFilesBody = Type.Object({
  server_ids: ServerIds,
  source_path: LocalPath,
  target_path: Type.Optional(Nullable(RemotePath)),
  sync_mode: Type.Optional(SyncModeSchema),
  batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  batch_id: Type.Optional(BatchId),
  async: Type.Optional(Type.Boolean()),
});

export const PreviewBody = Type.Object({
  server_id: ServerId,
  source_path: LocalPath,
  target_path: Type.Optional(Nullable(RemotePath)),
  sync_mode: Type.Optional(SyncModeSchema),
  verbose: Type.Optional(Type.Boolean()),
});

export const CancelBody = Type.Object({ batch_id: BatchId });


export const PushResultView = Type.Object({
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  status: ResultStatus,
  files_transferred: Type.Integer(),
  bytes_transferred: Type.Number(),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  /**
   * Why the server failed, when a client should react to it; null otherwise. `target_busy`:
   * another batch or retry job was writing this target (or one nested in it or containing it);
   * `error` names it. Such a server gets no retry job.
   */
  error_code: Nullable(Type.String()),
  retry_job_id: Nullable(Type.Integer()),
});

export const BatchView = Type.Object({
  batch_id: Type.String(),
  status: BatchStatus,
  operator: Nullable(Type.String()),
  source_path: Type.String(),
  sync_mode: Type.String(),
  started_at: Type.String(),
  finished_at: Nullable(Type.String()),
  total: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  skipped: Type.Integer(),
  results: Type.Array(PushResultView),
});

export const BatchAccepted = Type.Object({ batch_id: Type.String(), status: Type.Literal('running') });

export const PreviewView = Type.Object({
  server_id: Type.Integer(),
  server_name: Type.String(),
  sync_mode: SyncModeSchema,
  files_total: Type.Integer(),
  files_to_transfer: Type.Integer(),
  bytes_total: Type.Number(),
  bytes_to_transfer: Type.Number(),
  files_created: Type.Integer(),
  files_deleted: Type.Optional(Type.Integer()),
  file_list: Type.Optional(Type.Array(Type.String())),
  file_list_truncated: Type.Boolean(),
});

export const CancelView = Type.Object({ cancelled: Type.Literal(true), batch_id: Type.String() });

/**
 * A live message of a push batch, as sent on /ws/alerts and replayed by
 * GET /api/sync/batches/{id}/events. `seq` numbers a batch's messages from 1 without gaps.
 * - push_started: operator, source_path, target_path, sync_mode, total, failed (unknown servers)
 * - push_progress: server_id, server_name, status running (started, then transfer updates with
 *   percent, bytes_transferred, rate_bps, eta_s at most twice a second) or success / failed /
 *   skipped (done: files_transferred, bytes_transferred, duration_ms, error, error_code, retry_job_id)
 * - push_complete: status, total, succeeded, failed, skipped, operator
 */
/** One numbered live message of a batch; defined with every other live message (one schema for both sides). */
export const BatchEvent = PushEvent;

export const BatchEventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: ID_MAX, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })),
});

export const BatchEventsView = Type.Object({
  batch_id: Type.String(),
  status: BatchStatus,
  events: Type.Array(BatchEvent),
  /** The seq of the last message returned (or `after` when none); ask again after it while `more`. */
  last_seq: Type.Integer(),
  more: Type.Boolean(),
});

/** A batch without its per-server results: what a history list shows. */
export const BatchSummary = Type.Omit(BatchView, ['results']);

export const BatchSummaryQuery = Type.Object({
  status: Type.Optional(BatchStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});

export const BatchSummaryPage = Type.Object({
  items: Type.Array(BatchSummary),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const BatchListQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) });
export const BatchParams = Type.Object({ batch_id: Type.String({ maxLength: 200 }) });

export type SyncFilesBody = Static<typeof SyncFilesBody>;
export type PreviewBody = Static<typeof PreviewBody>;
export type PushResultView = Static<typeof PushResultView>;
export type BatchView = Static<typeof BatchView>;
export type PreviewView = Static<typeof PreviewView>;
export type CancelView = Static<typeof CancelView>;
export type BatchEvent = Static<typeof BatchEvent>;
export type BatchEventsView = Static<typeof BatchEventsView>;
export type BatchSummary = Static<typeof BatchSummary>;
export type BatchSummaryQuery = Static<typeof BatchSummaryQuery>;
export type BatchSummaryPage = Static<typeof BatchSummaryPage>;

// The stored values' schemas, shared with the table types (see core/column-values.ts).
export { BatchStatus, ResultStatus, SyncModeSchema, type SyncMode };
