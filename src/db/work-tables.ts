/**
 * Table types of work in flight, shared by both dialects (the conventions of ./types.ts): push
 * batches and their results, events and target claims, retry jobs, idempotency keys, notice
 * claims and the notification outbox.
 */
import type { ColumnType, Generated } from 'kysely';
import type { BatchStatus, ResultStatus, RetryStatus, SyncMode } from '../core/column-values.js';

type Id = Generated<number>;

export interface RetryJobsTable {
  id: Id;
  server_id: number;
  server_name: string | null;
  operator: string | null;
  source_path: string;
  target_path: string | null;
  sync_mode: SyncMode;
  batch_id: string | null;
  status: RetryStatus;
  retry_count: number;
  max_retries: number;
  next_retry_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The process running the job and until when (see the leases migration). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PushBatchesTable {
  batch_id: string;
  status: BatchStatus;
  operator: string | null;
  source_path: string;
  target_path: string | null;
  sync_mode: SyncMode;
  started_at: string;
  finished_at: string | null;
  total: number;
  succeeded: number;
  failed: number;
  skipped: number;
  /** The process running the batch and until when (see the leases migration). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a cancel was asked for (the durable copy of the cache's cancel flag). */
  cancel_requested_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One live message of a push batch, numbered per batch; `payload` is the message as JSON. */
export interface PushEventsTable {
  id: Id;
  batch_id: string;
  seq: number;
  payload: string;
  created_at: string;
}

export interface PushResultsTable {
  id: Id;
  batch_id: string;
  server_id: number;
  server_name: string | null;
  status: ResultStatus;
  files_transferred: number;
  bytes_transferred: ColumnType<number, number, number>;
  duration_ms: number;
  error: string | null;
  retry_job_id: number | null;
  /** Why the server failed, when a client should react to it (`target_busy`); null otherwise. */
  error_code: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A (server, remote directory) a running batch or retry job is writing; see the push module. */
export interface PushTargetClaimsTable {
  server_id: number;
  target_hash: string;
  target_path: string;
  /** `batch` or `retry_job`. */
  holder_kind: string;
  holder_id: string;
  lease_owner: string;
  lease_expires_at: string;
  created_at: string;
}

/** A request that started work, by caller and Idempotency-Key, kept ten minutes. */
export interface IdempotencyKeysTable {
  scope: string;
  idem_key: string;
  /** sha256 of the route and body: the same key with another request is refused. */
  fingerprint: string;
  /** Null while the first request is still being answered. */
  status_code: number | null;
  response: string | null;
  created_at: string;
  expires_at: string;
}

export interface NoticeClaimsTable {
  claim_key: string;
  expires_at: string;
}

export interface NotificationOutboxTable {
  id: Id;
  event_kind: string;
  /** `channel:<id>` for a channel of the channels module, `messenger` / `messenger_offline` for the settings bots. */
  destination: string;
  channel_type: string;
  /** The rendered NotificationMessage, JSON. */
  payload: string;
  dedup_key: string | null;
  /** pending → delivered | failed. */
  state: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}
