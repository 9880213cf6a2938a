import { Type, type Static } from 'typebox';
import { RunStatus } from '../../core/column-values.js';
import { Id, Nullable } from '../../http/schemas.js';
import { ServerIds } from '../push/push.schemas.js';
import { ScriptEvent } from '../../platform/events/live-events.schemas.js';


export const SCRIPT_MAX_CHARS = 100_000;
export const ScriptContent = Type.String({ minLength: 1, maxLength: SCRIPT_MAX_CHARS });
const ScriptName = Type.String({ minLength: 1, maxLength: 200 });
export const ScriptId = Id;

export const ScriptView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  content: Type.String(),
  created_at: Type.String(),
});

export const CreateScriptBody = Type.Object({ name: ScriptName, content: ScriptContent });
export const UpdateScriptBody = Type.Object({ name: Type.Optional(ScriptName), content: Type.Optional(ScriptContent) });

export const RunScriptBody = Type.Object({
  server_ids: ServerIds,
  script_id: Type.Optional(Nullable(ScriptId)),
  script_content: Type.Optional(Nullable(ScriptContent)),
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  /** true: answer 202 with the run_id at once and run in the background (follow it on the socket or GET /runs/{run_id}/events). */
  async: Type.Optional(Type.Boolean()),
});

export const ScriptRunResultView = Type.Object({
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  exit_code: Nullable(Type.Integer()),
  stdout: Type.String(),
  stderr: Type.String(),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
});

export const ScriptRunView = Type.Object({ run_id: Type.String(), results: Type.Array(ScriptRunResultView) });
export const ScriptRunAccepted = Type.Object({ run_id: Type.String(), status: Type.Literal('running') });

/** One server of a run: `pending` (waiting for a slot), `running`, `success` (exit 0) or `failed` (any other end). */
export const RunServerStatus = Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('success'), Type.Literal('failed')]);

export const ScriptRunServer = Type.Object({
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  status: RunServerStatus,
  exit_code: Nullable(Type.Integer()),
  duration_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  /** The last 64 KiB of each stream, once the server has ended (empty before). */
  stdout: Type.String(),
  stderr: Type.String(),
});

export const ScriptRunSummary = Type.Object({
  run_id: Type.String(),
  label: Type.String(),
  script_id: Nullable(Type.Integer()),
  schedule_id: Nullable(Type.Integer()),
  operator: Type.String(),
  status: RunStatus,
  total: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  server_ids: Type.Array(Type.Integer()),
  started_at: Type.String(),
  finished_at: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
});

export const ScriptRunDetail = Type.Object({ ...ScriptRunSummary.properties, servers: Type.Array(ScriptRunServer) });

export const ScriptRunsQuery = Type.Object({
  status: Type.Optional(RunStatus),
  /** Runs started at or after: a date (its whole Asia/Shanghai day) or a datetime (without an offset: Asia/Shanghai). */
  from: Type.Optional(Type.String({ maxLength: 64 })),
  /** Runs started at or before (a date covers its whole Asia/Shanghai day). */
  to: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});

export const ScriptRunsPage = Type.Object({
  items: Type.Array(ScriptRunSummary),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const RunParams = Type.Object({ run_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', maxLength: 64 }) });

export const ScriptRunEventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })),
});

export const ScriptRunEventsView = Type.Object({
  run_id: Type.String(),
  status: RunStatus,
  events: Type.Array(ScriptEvent),
  /** The seq of the last message returned (or `after` when none); ask again after it while `more`. */
  last_seq: Type.Integer(),
  more: Type.Boolean(),
});
export type ScriptView = Static<typeof ScriptView>;
export type CreateScriptBody = Static<typeof CreateScriptBody>;
export type UpdateScriptBody = Static<typeof UpdateScriptBody>;
export type RunScriptBody = Static<typeof RunScriptBody>;
export type ScriptRunResultView = Static<typeof ScriptRunResultView>;
export type ScriptRunView = Static<typeof ScriptRunView>;
export type ScriptRunAccepted = Static<typeof ScriptRunAccepted>;
export type ScriptRunServer = Static<typeof ScriptRunServer>;
export type ScriptRunSummary = Static<typeof ScriptRunSummary>;
export type ScriptRunDetail = Static<typeof ScriptRunDetail>;
export type ScriptRunsQuery = Static<typeof ScriptRunsQuery>;
export type ScriptRunsPage = Static<typeof ScriptRunsPage>;
export type ScriptRunEventsView = Static<typeof ScriptRunEventsView>;

// The stored values' schemas, shared with the table types (see core/column-values.ts).
export { RunStatus };
