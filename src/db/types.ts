/**
 * Table types shared by both dialects. Portable choices: timestamps are ISO-8601 UTC text,
 * booleans are integers 0/1, lists are JSON text. Repositories convert to API shapes.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { RunMode, RunStatus, ScheduleRunStatus, ScheduleType, ServerStatus, SyncMode } from '../core/column-values.js';
// Work in flight (pushes, retries, claims, idempotency, the outbox) is typed in its own file.
import type { RetryJobsTable, PushBatchesTable, PushEventsTable, PushResultsTable, PushTargetClaimsTable, IdempotencyKeysTable, NoticeClaimsTable, NotificationOutboxTable } from './work-tables.js';
export type { RetryJobsTable, PushBatchesTable, PushEventsTable, PushResultsTable, PushTargetClaimsTable, IdempotencyKeysTable, NoticeClaimsTable, NotificationOutboxTable } from './work-tables.js';

type Id = Generated<number>;

export interface AdminsTable {
  id: Id;
  username: string;
  password_hash: string;
  token_version: Generated<number>;
  totp_secret_enc: string | null;
  totp_enabled: Generated<number>;
  /** The TOTP time step (30 s periods since the epoch) of the last code accepted; null before any. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

/** One login's chain of refresh tokens; only `current_jti` may be used next. */
export interface RefreshFamiliesTable {
  id: string;
  admin_id: number;
  current_jti: string;
  created_at: string;
  revoked: Generated<number>;
}

export interface SettingsTable {
  key: string;
  value: string | null;
  updated_at: string;
}

export interface AuditLogTable {
  id: Id;
  admin_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: string | null;
  ip_address: string | null;
  created_at: string;
}

export interface ServersTable {
  id: Id;
  name: string;
  host: string;
  port: number;
  username: string;
  auth_type: string;
  ssh_key_preset_id: number | null;
  password_preset_id: number | null;
  password_enc: string | null;
  private_key_enc: string | null;
  target_path: string | null;
  /** JSON array of strings. */
  tags: string;
  host_key_fingerprint: string | null;
  status: Generated<ServerStatus>;
  last_heartbeat_at: string | null;
  agent_token_hash: string | null;
  /** SSH reachability (ISO times; the error as a class, e.g. `refused`): written by the servers feature. */
  ssh_last_ok_at: Generated<string | null>;
  ssh_last_error_at: Generated<string | null>;
  ssh_last_error: Generated<string | null>;
  ssh_failing_since: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface PasswordPresetsTable {
  id: Id;
  name: string;
  username: string;
  password_enc: string;
  created_at: string;
}

export interface NotificationChannelsTable {
  id: Id;
  name: string;
  type: string;
  enabled: number;
  /** JSON of the non-secret config fields. */
  config: string;
  /** Cipher text of a JSON object holding the secret config fields. */
  secrets: string;
  /** JSON arrays. */
  events: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface SshKeyPresetsTable {
  id: Id;
  name: string;
  username: string;
  private_key_enc: string;
  public_key: string;
  created_at: string;
}

export interface ScriptsTable {
  id: Id;
  name: string;
  content: string;
  created_at: string;
}

/** One run of a script on servers; `server_ids` and `results` are JSON text. */
export interface ScriptRunsTable {
  id: Id;
  run_id: string;
  label: string;
  script_id: number | null;
  schedule_id: number | null;
  operator: string;
  server_ids: string;
  status: RunStatus;
  total: number;
  succeeded: Generated<number>;
  failed: Generated<number>;
  results: Generated<string>;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  /** The process running it and until when (see platform/leases); null once it ended. */
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/** The numbered live messages of a script run. */
export interface ScriptRunEventsTable {
  id: Id;
  run_id: string;
  seq: number;
  payload: string;
  created_at: string;
}

export interface SchedulesTable {
  id: Id;
  name: string;
  schedule_type: ScheduleType;
  source_path: string | null;
  target_path: string | null;
  /** JSON array of integers. */
  server_ids: string;
  run_mode: RunMode;
  cron_expr: string | null;
  fire_at: string | null;
  sync_mode: SyncMode;
  enabled: number;
  script_id: number | null;
  script_content: string | null;
  exec_timeout: number;
  long_task: number;
  last_run_at: string | null;
  created_at: string;
  /** The token of the claim that took the latest slot (migration 20261126T1802). */
  claim_token: string | null;
}

/** One firing of a schedule (see migration 20261126T1702-schedule-runs). */
export interface ScheduleRunsTable {
  id: Id;
  schedule_id: number;
  schedule_type: ScheduleType;
  /** The match or fire time the run was owed for. */
  slot: string;
  started_at: string;
  finished_at: string | null;
  status: ScheduleRunStatus;
  batch_id: string | null;
  run_id: string | null;
  total: Generated<number>;
  succeeded: Generated<number>;
  failed: Generated<number>;
  error: string | null;
  /** The process running it and until when (see platform/leases); null once it ended. */
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export interface AlertLogTable {
  id: Id;
  server_id: number;
  server_name: string | null;
  alert_type: string;
  value: number | null;
  is_recovery: number;
  created_at: string;
}

export interface Database {
  admins: AdminsTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  servers: ServersTable;
  password_presets: PasswordPresetsTable;
  ssh_key_presets: SshKeyPresetsTable;
  notification_channels: NotificationChannelsTable;
  scripts: ScriptsTable;
  script_runs: ScriptRunsTable;
  script_run_events: ScriptRunEventsTable;
  schedules: SchedulesTable;
  schedule_runs: ScheduleRunsTable;
  alert_log: AlertLogTable;
  retry_jobs: RetryJobsTable;
  push_batches: PushBatchesTable;
  push_results: PushResultsTable;
  push_events: PushEventsTable;
  push_target_claims: PushTargetClaimsTable;
  idempotency_keys: IdempotencyKeysTable;
  notice_claims: NoticeClaimsTable;
  notification_outbox: NotificationOutboxTable;
  refresh_families: RefreshFamiliesTable;
}

export type AdminRow = Selectable<AdminsTable>;
export type RefreshFamilyRow = Selectable<RefreshFamiliesTable>;
export type SettingRow = Selectable<SettingsTable>;
export type AuditRow = Selectable<AuditLogTable>;
export type ServerRow = Selectable<ServersTable>;
export type PasswordPresetRow = Selectable<PasswordPresetsTable>;
export type SshKeyPresetRow = Selectable<SshKeyPresetsTable>;
export type NotificationChannelRow = Selectable<NotificationChannelsTable>;
export type ScriptRow = Selectable<ScriptsTable>;
export type ScriptRunRow = Selectable<ScriptRunsTable>;
export type ScheduleRow = Selectable<SchedulesTable>;
export type ScheduleRunRow = Selectable<ScheduleRunsTable>;
export type AlertRow = Selectable<AlertLogTable>;
export type RetryJobRow = Selectable<RetryJobsTable>;
export type PushBatchRow = Selectable<PushBatchesTable>;
export type PushResultRow = Selectable<PushResultsTable>;
export type PushTargetClaimRow = Selectable<PushTargetClaimsTable>;
export type NotificationOutboxRow = Selectable<NotificationOutboxTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
