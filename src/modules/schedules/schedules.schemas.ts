import { Type, type Static } from 'typebox';
import { RunMode, ScheduleRunStatus, ScheduleType } from '../../core/column-values.js';
import { Nullable } from '../../http/schemas.js';
import { RemotePath, ServerId, SyncModeSchema } from '../push/push.schemas.js';
import { SCRIPT_MAX_CHARS, ScriptId } from '../scripts/scripts.schemas.js';


const fields = {
  source_path: Nullable(Type.String({ maxLength: 4096 })),
  target_path: Nullable(RemotePath),
  server_ids: Nullable(Type.Array(ServerId, { maxItems: 5000 })),
  run_mode: Nullable(RunMode),
  cron_expr: Nullable(Type.String({ maxLength: 200 })),
  fire_at: Nullable(Type.String({ maxLength: 64 })),
  sync_mode: Nullable(SyncModeSchema),
  enabled: Nullable(Type.Boolean()),
  schedule_type: Nullable(ScheduleType),
  script_id: Nullable(ScriptId),
  script_content: Nullable(Type.String({ maxLength: SCRIPT_MAX_CHARS })),
  exec_timeout: Nullable(Type.Integer({ minimum: 1, maximum: 86_400 })),
  long_task: Nullable(Type.Boolean()),
};
const ScheduleName = Type.String({ minLength: 1, maxLength: 200 });

type Fields = typeof fields;
const optionalFields = Object.fromEntries(
  Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)]),
) as { [K in keyof Fields]: ReturnType<typeof Type.Optional<Fields[K]>> };

export const CreateScheduleBody = Type.Object({ name: ScheduleName, ...optionalFields });
export const UpdateScheduleBody = Type.Object({ name: Type.Optional(ScheduleName), ...optionalFields });


/** One firing of a schedule: the batch (push) or run (script) it started, its counts, or why it could not start. */
export const ScheduleRunView = Type.Object({
  id: Type.Integer(),
  schedule_id: Type.Integer(),
  schedule_type: ScheduleType,
  slot: Type.String({ description: 'the cron match or fire time this run was owed for (ISO 8601, UTC)' }),
  started_at: Type.String(),
  finished_at: Nullable(Type.String()),
  status: ScheduleRunStatus,
  batch_id: Nullable(Type.String()),
  run_id: Nullable(Type.String()),
  total: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  error: Nullable(Type.String()),
});

export const ScheduleRunsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});

export const ScheduleRunsPage = Type.Object({
  items: Type.Array(ScheduleRunView),
  total: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
});

export const ScheduleView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  source_path: Nullable(Type.String()),
  target_path: Nullable(Type.String()),
  server_ids: Type.Array(Type.Integer()),
  run_mode: RunMode,
  cron_expr: Nullable(Type.String()),
  fire_at: Nullable(Type.String()),
  sync_mode: SyncModeSchema,
  enabled: Type.Boolean(),
  schedule_type: ScheduleType,
  script_id: Nullable(Type.Integer()),
  script_content: Nullable(Type.String()),
  exec_timeout: Type.Integer(),
  long_task: Type.Boolean(),
  last_run_at: Nullable(Type.String()),
  next_run: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  /** Additive (console): the newest run of this schedule, null before its first. */
  last_result: Type.Optional(Nullable(ScheduleRunView)),
});
export type CreateScheduleBody = Static<typeof CreateScheduleBody>;
export type UpdateScheduleBody = Static<typeof UpdateScheduleBody>;
export type ScheduleView = Static<typeof ScheduleView>;
export type ScheduleRunView = Static<typeof ScheduleRunView>;
export type ScheduleRunsQuery = Static<typeof ScheduleRunsQuery>;
export type ScheduleRunsPage = Static<typeof ScheduleRunsPage>;

// The stored values' schemas, shared with the table types (see core/column-values.ts).
export { RunMode, ScheduleRunStatus, ScheduleType };
