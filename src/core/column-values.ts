/**
 * The closed sets of values stored in status and mode columns, as TypeBox schemas. They live in
 * core because both sides need them: the table types (src/db/types.ts, which may not import a
 * feature) type each column as `Static<>` of its schema, and each feature's API schemas reuse
 * the same schema — so a row read from the database is already of the API's type, without a cast.
 */
import { Type, type Static } from 'typebox';

/** The push modes: incremental (changed files), full (adds --delete), checksum; anything else is a 422. */
export const SyncModeSchema = Type.Union([Type.Literal('incremental'), Type.Literal('full'), Type.Literal('checksum')]);
export type SyncMode = Static<typeof SyncModeSchema>;

/** A push batch: `running`, then how it ended. */
export const BatchStatus = Type.Union([
  Type.Literal('running'), Type.Literal('completed'), Type.Literal('partial'), Type.Literal('failed'), Type.Literal('cancelled'),
]);
export type BatchStatus = Static<typeof BatchStatus>;

/** One server of a push batch. */
export const ResultStatus = Type.Union([
  Type.Literal('pending'), Type.Literal('running'), Type.Literal('success'), Type.Literal('failed'), Type.Literal('skipped'),
]);
export type ResultStatus = Static<typeof ResultStatus>;

/** pending → running → succeeded, or back to pending with back-off, or failed once attempts are used up. */
export const RetryStatus = Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]);
export type RetryStatus = Static<typeof RetryStatus>;

/** A script run: `running`, then `success` (every server exited 0), `partial` (some did) or `failed` (none did). */
export const RunStatus = Type.Union([Type.Literal('running'), Type.Literal('success'), Type.Literal('partial'), Type.Literal('failed')]);
export type RunStatus = Static<typeof RunStatus>;

export const RunMode = Type.Union([Type.Literal('once'), Type.Literal('cron')]);
export type RunMode = Static<typeof RunMode>;

export const ScheduleType = Type.Union([Type.Literal('push'), Type.Literal('script')]);
export type ScheduleType = Static<typeof ScheduleType>;

/** How a schedule's firing ended: a push takes its batch's status; a script run is `completed` when every server succeeded. */
export const ScheduleRunStatus = Type.Union([
  Type.Literal('running'), Type.Literal('completed'), Type.Literal('partial'), Type.Literal('failed'), Type.Literal('cancelled'),
]);
export type ScheduleRunStatus = Static<typeof ScheduleRunStatus>;

/** A server's agent status: `unknown` until its first heartbeat. */
export const ServerStatus = Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('unknown')]);
export type ServerStatus = Static<typeof ServerStatus>;

