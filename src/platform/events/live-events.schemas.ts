/**
 * Every message the live socket (`/ws/alerts`) carries, as one TypeBox union. The service types
 * its event bus with it and the console imports the same types, so a field added or renamed
 * here breaks both sides' compile instead of silently going missing. Messages of long work
 * (push batches, script runs) carry a `seq` per batch or run: the same message is stored in
 * that work's journal and replayed from `GET …/events?after=<seq>`.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

/** An alert opened (`alert`) or closed (`recovery`). */
export const AlertEvent = Type.Object({
  type: Type.Union([Type.Literal('alert'), Type.Literal('recovery')]),
  id: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  alert_type: Type.String(),
  value: Nullable(Type.Number()),
  created_at: Type.Optional(Type.String()),
});

/** A push batch's start, one server's progress or outcome, and its end. */
export const PushEvent = Type.Object(
  {
    type: Type.Union([Type.Literal('push_started'), Type.Literal('push_progress'), Type.Literal('push_complete')]),
    batch_id: Type.String(),
    seq: Type.Integer({ minimum: 1 }),
    server_id: Type.Optional(Type.Integer()),
    server_name: Type.Optional(Nullable(Type.String())),
    status: Type.Optional(Type.String()),
    percent: Type.Optional(Type.Number()),
    bytes_transferred: Type.Optional(Type.Number()),
    rate_bps: Type.Optional(Type.Number()),
    eta_s: Type.Optional(Type.Number()),
    files_transferred: Type.Optional(Type.Integer()),
    duration_ms: Type.Optional(Type.Integer()),
    error: Type.Optional(Nullable(Type.String())),
    error_code: Type.Optional(Nullable(Type.String())),
    retry_job_id: Type.Optional(Nullable(Type.Integer())),
    total: Type.Optional(Type.Integer()),
    succeeded: Type.Optional(Type.Integer()),
    failed: Type.Optional(Type.Integer()),
    skipped: Type.Optional(Type.Integer()),
    operator: Type.Optional(Nullable(Type.String())),
    source_path: Type.Optional(Type.String()),
    target_path: Type.Optional(Nullable(Type.String())),
    sync_mode: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Fields every script-run message has: its run, its number in the run's journal, and (for a scheduled run) the schedule. */
const ScriptBase = {
  run_id: Type.String(),
  seq: Type.Integer({ minimum: 1 }),
  schedule_id: Type.Optional(Type.Integer()),
};

/** A run started: what runs, who started it, and on which servers. */
export const ScriptStartedEvent = Type.Object({
  type: Type.Literal('script_started'),
  ...ScriptBase,
  label: Type.String(),
  script_id: Nullable(Type.Integer()),
  operator: Type.String(),
  total: Type.Integer(),
  servers: Type.Array(Type.Object({ server_id: Type.Integer(), server_name: Nullable(Type.String()) })),
});

/**
 * One server started (`running`) or ended: `finished` (it exited; `exit_code` says how) or
 * `failed` (no exit code: unreachable, timed out, killed). The end message also carries the
 * last 64 KiB of each stream, as the run's answer does.
 */
export const ScriptProgressEvent = Type.Object({
  type: Type.Literal('script_progress'),
  ...ScriptBase,
  server_id: Type.Integer(),
  server_name: Nullable(Type.String()),
  status: Type.Union([Type.Literal('running'), Type.Literal('finished'), Type.Literal('failed')]),
  exit_code: Type.Optional(Nullable(Type.Integer())),
  error: Type.Optional(Nullable(Type.String())),
  duration_ms: Type.Optional(Type.Integer()),
  stdout: Type.Optional(Type.String()),
  stderr: Type.Optional(Type.String()),
});

/**
 * A piece of one server's output as it arrives, in order per server. After a server's first
 * 256 KiB of streamed output one message with `truncated: true` (and empty `data`) ends its
 * stream; its final 64 KiB tails still come with its end message.
 */
export const ScriptOutputEvent = Type.Object({
  type: Type.Literal('script_output'),
  ...ScriptBase,
  server_id: Type.Integer(),
  stream: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]),
  data: Type.String(),
  truncated: Type.Optional(Type.Boolean()),
});

/** A run ended: how many servers exited 0 (`succeeded`) and how many did not. */
export const ScriptCompleteEvent = Type.Object({
  type: Type.Literal('script_complete'),
  ...ScriptBase,
  label: Type.String(),
  script_id: Nullable(Type.Integer()),
  status: Type.Union([Type.Literal('success'), Type.Literal('partial'), Type.Literal('failed')]),
  total: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  duration_ms: Type.Integer(),
});

export const ScriptEvent = Type.Union([ScriptStartedEvent, ScriptProgressEvent, ScriptOutputEvent, ScriptCompleteEvent]);

/** Everything the live socket sends. */
export const LiveEvent = Type.Union([AlertEvent, PushEvent, ScriptEvent]);

export type AlertEvent = Static<typeof AlertEvent>;
export type PushEvent = Static<typeof PushEvent>;
export type ScriptStartedEvent = Static<typeof ScriptStartedEvent>;
export type ScriptProgressEvent = Static<typeof ScriptProgressEvent>;
export type ScriptOutputEvent = Static<typeof ScriptOutputEvent>;
export type ScriptCompleteEvent = Static<typeof ScriptCompleteEvent>;
export type ScriptEvent = Static<typeof ScriptEvent>;
export type LiveEvent = Static<typeof LiveEvent>;
export type LiveEventType = LiveEvent['type'];
