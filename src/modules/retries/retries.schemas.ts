import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';


export const RetryJobView = Type.Object({
  id: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  operator: Nullable(Type.String()),
  source_path: Type.String(),
  target_path: Nullable(Type.String()),
  status: Type.String(),
  retry_count: Type.Integer(),
  max_retries: Type.Integer(),
  next_retry_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
});

export const RetryListQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) });
