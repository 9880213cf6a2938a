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
});

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
