import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../http/schemas.js';

/** NUL characters are refused for every field by the input guard (http/input-guard.ts), a 422 naming the field. */
const PathString = (opts: { minLength?: number } = {}) => Type.String({ maxLength: 4096, ...opts });

// ---- browse ----
export const BrowseBody = Type.Object({
  // Optional on purpose: a missing or zero server_id is a 400 (as for upload), not a schema 422.
  server_id: Type.Optional(Nullable(Type.Union([Type.Literal(0), Id]))),
  path: Type.Optional(PathString()),
});
export type BrowseBody = Static<typeof BrowseBody>;

export const BrowseEntry = Type.Object({
  name: Type.String(),
  is_dir: Type.Boolean(),
  size: Type.String(),
  perms: Type.String(),
  owner: Type.String(),
  modified: Type.String(),
});
export type BrowseEntry = Static<typeof BrowseEntry>;

export const BrowseResponse = Type.Object({
  path: Type.String(),
  entries: Type.Array(BrowseEntry),
  error: Type.Optional(Type.String()),
});
export type BrowseResponse = Static<typeof BrowseResponse>;

// ---- file-ops ----
export const FileOpsBody = Type.Object({
  server_id: Id,
  // A plain string: an unknown operation is a 400 naming it, not a schema 422.
  operation: Type.String({ maxLength: 32 }),
  path: PathString(),
  new_path: Type.Optional(Nullable(PathString())),
});
export type FileOpsBody = Static<typeof FileOpsBody>;

export const FileOpsResponse = Type.Object({
  success: Type.Literal(true),
  operation: Type.String(),
  path: Type.String(),
});
export type FileOpsResponse = Static<typeof FileOpsResponse>;

// ---- diagnose ----
export const DiagnoseBody = Type.Object({
  server_id: Id,
  target_path: Type.Optional(Nullable(PathString())),
  /** Also answer `checks` (one verdict per check, with advice) and test that rsync is installed. */
  with_checks: Type.Optional(Type.Boolean()),
});
export type DiagnoseBody = Static<typeof DiagnoseBody>;

/** The checks, in the order they run. `path` covers existence, permissions and the write test. */
const DiagnoseCheckName = Type.Union([
  Type.Literal('reachability'), Type.Literal('auth'), Type.Literal('disk'), Type.Literal('path'), Type.Literal('rsync'),
]);
export type DiagnoseCheckName = Static<typeof DiagnoseCheckName>;
export const DIAGNOSE_CHECKS: readonly DiagnoseCheckName[] = ['reachability', 'auth', 'disk', 'path', 'rsync'];

/** What to do about a failed (or warning) check: a stable code the console translates. */
const DiagnoseAdvice = Type.Union([
  Type.Literal('start_sshd'), Type.Literal('check_network'), Type.Literal('check_host_name'), Type.Literal('check_credentials'),
  Type.Literal('add_credentials'), Type.Literal('credentials_undecryptable'), Type.Literal('host_key_changed'),
  Type.Literal('free_disk_space'), Type.Literal('create_directory'), Type.Literal('fix_permissions'),
  Type.Literal('install_rsync'), Type.Literal('retry_later'),
]);
export type DiagnoseAdvice = Static<typeof DiagnoseAdvice>;

export const DiagnoseCheck = Type.Object({
  check: DiagnoseCheckName,
  /** `skipped`: an earlier check failed, so this one could not run. `warning`: works, but needs attention (a disk over 90 %). */
  status: Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('warning'), Type.Literal('skipped')]),
  /** What was found (a version, `12G free`, `drwxr-xr-x`) or the error text (English, from the server or the SSH library). */
  detail: Nullable(Type.String()),
  /** What to do about it, as a code; absent when the check passed or was skipped. */
  advice: Type.Optional(DiagnoseAdvice),
  /** The advice in English, for API clients without the console's catalogue; absent with `advice`. */
  advice_text: Type.Optional(Type.String()),
});
export type DiagnoseCheck = Static<typeof DiagnoseCheck>;

export const DiagnoseResponse = Type.Object({
  server_id: Type.Integer(),
  server_name: Type.String(),
  ssh_ok: Type.Boolean(),
  disk_avail: Nullable(Type.String()),
  disk_used_pct: Nullable(Type.Integer()),
  path_exists: Nullable(Type.Boolean()),
  path_perms: Nullable(Type.String()),
  path_writable: Nullable(Type.Boolean()),
  errors: Type.Array(Type.String()),
  /** Only when the body asked `with_checks`: the five checks (reachability, auth, disk, path, rsync) in order. */
  checks: Type.Optional(Type.Array(DiagnoseCheck)),
});
export type DiagnoseResponse = Static<typeof DiagnoseResponse>;

// ---- file-diff ----
export const FileDiffBody = Type.Object({
  source_path: PathString({ minLength: 1 }),
  relative_path: PathString({ minLength: 1 }),
  server_id: Id,
  target_path: Type.Optional(Nullable(PathString())),
});
export type FileDiffBody = Static<typeof FileDiffBody>;

export const DiffLine = Type.Object({
  type: Type.Union([Type.Literal('add'), Type.Literal('del'), Type.Literal('ctx'), Type.Literal('header')]),
  content: Type.String(),
});
export type DiffLine = Static<typeof DiffLine>;

export const FileDiffResponse = Type.Object({
  file_name: Type.String(),
  local_exists: Type.Boolean(),
  remote_exists: Nullable(Type.Boolean()),
  local_size: Type.Integer(),
  remote_size: Nullable(Type.Integer()),
  diff_lines: Type.Array(DiffLine),
  truncated: Type.Boolean(),
  /** Set when the local file is not a regular file, or the remote side could not be read. */
  error: Type.Optional(Nullable(Type.String())),
});
export type FileDiffResponse = Static<typeof FileDiffResponse>;

// ---- upload ----
export const UploadResponse = Type.Object({
  success: Type.Literal(true),
  server_id: Type.Integer(),
  remote_path: Type.String(),
  filename: Type.String(),
  size: Type.Integer(),
});
export type UploadResponse = Static<typeof UploadResponse>;

// ---- verify ----
export const VerifyBody = Type.Object({
  source_path: PathString({ minLength: 1 }),
  server_ids: Type.Array(Id, { maxItems: 1000 }),
  target_path: Type.Optional(Nullable(PathString())),
  max_files: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 10_000 })),
});
export type VerifyBody = Static<typeof VerifyBody>;

/** One server's verdict: counts and capped lists when checked, else `error`. */
export const VerifyServerResult = Type.Object({
  server_id: Type.Integer(),
  server_name: Type.String(),
  matched: Type.Optional(Type.Integer()),
  missing: Type.Optional(Type.Integer()),
  mismatched: Type.Optional(Type.Integer()),
  missing_files: Type.Optional(Type.Array(Type.String())),
  mismatched_files: Type.Optional(Type.Array(Type.String())),
  error: Type.Optional(Type.String()),
});
export type VerifyServerResult = Static<typeof VerifyServerResult>;

export const VerifyResponse = Type.Object({
  results: Type.Record(Type.String(), VerifyServerResult),
  total_local_files: Type.Integer(),
});
export type VerifyResponse = Static<typeof VerifyResponse>;
