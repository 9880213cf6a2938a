import { Type, type Static } from 'typebox';
import { RetryStatus } from '../../core/column-values.js';
import { Nullable } from '../../http/schemas.js';


export const RetryJobView = Type.Object({
  id: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  operator: Nullable(Type.String()),
  source_path: Type.String(),
  target_path: Nullable(Type.String()),
  status: RetryStatus,
  retry_count: Type.Integer(),
  max_retries: Type.Integer(),
  next_retry_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
});

/** Retry jobs by status, and the newest that ran out of attempts. */
export const RetryOverview = Type.Object({
  pending: Type.Integer(),
  running: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  recent_failed: Type.Array(RetryJobView),
});

export const RetryListQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) });

export type RetryJobView = Static<typeof RetryJobView>;
export type RetryOverview = Static<typeof RetryOverview>;

// The stored values' schemas, shared with the table types (see core/column-values.ts).
export { RetryStatus };
