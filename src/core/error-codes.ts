/**
 * The catalogue of error codes. Every error answer is `{ detail, code }`: `detail` is English
 * for humans and logs, `code` is stable and machine-readable, so a client (the console
 * translates each one) never parses the text. A code, once published, is never renamed or
 * reused for another meaning; add a new one instead. Each entry says when it is answered; the
 * list is published at /docs and the console's translation test fails on a code it lacks.
 */
export const ERROR_CODES = {
  // Generic codes: the default of each error class when a throw site names nothing sharper.
  bad_request: 'A business rule refused the request (the detail says which)',
  unauthorized: 'Not authenticated: a missing, malformed, expired or revoked token',
  forbidden: 'Authenticated, but not allowed to do this',
  not_found: 'The thing asked for does not exist',
  conflict: 'The request conflicts with the current state',
  validation_failed: 'The request does not match its schema (422; `errors` names each field)',
  rate_limited: 'Too many requests: wait the seconds in Retry-After',
  internal_error: 'The service failed; the log has the cause',
  bad_gateway: 'An upstream (SSH, bot API, subscription) failed',
  remote_command_failed: 'A command on the server exited non-zero or timed out',
  route_not_found: 'No such API route',
  body_too_large: 'The request body is larger than the route accepts',
  unsupported_media_type: 'The content type is not accepted here',
  invalid_json: 'The body is not valid JSON',
  invalid_url: 'The URL is not valid (or a path segment is too long)',
  console_not_built: 'The web console has not been built (npm run build)',
  value_out_of_range: 'A value cannot be stored or looked up (too large a number, or bytes the database refuses)',
  decryption_failed: 'A stored secret could not be decrypted with the current ENCRYPTION_KEY',
  // Authentication and access.
  invalid_credentials: 'Wrong user name or password',
  ip_blocked: 'The login IP allowlist refuses the caller address',
  totp_required: 'The administrator has TOTP on: send totp_code',
  totp_invalid: 'The TOTP code is wrong or was already used',
  totp_enabled: 'TOTP is already on: turn it off first (that needs the password)',
  wrong_password: 'The current password given for re-authentication is wrong',
  api_key_refused: 'The API key may not do this: it cannot manage administrators, reveal secrets or weaken access control',
  // SSH.
  ssh_unreachable: 'The server could not be reached over SSH',
  ssh_auth_failed: 'The server refused the SSH credentials',
  ssh_host_key_mismatch: 'The server presented a different host key than the pinned one',
  // Resources.
  server_not_found: 'No server with that id',
  // Paths.
  path_outside_staging: 'The path resolves outside the staging area',
  protected_path: 'The path is a protected system directory',
  // ZIP uploads.
  zip_name_too_long: 'A ZIP entry name has a path segment longer than 255 bytes of UTF-8',
  zip_name_undecodable: 'A ZIP entry name is not valid in its encoding (marked UTF-8, or the zip_name_encoding setting)',
  // Work that must happen once.
  idempotency_key_invalid: 'The Idempotency-Key header is not 1 to 128 visible ASCII characters',
  idempotency_key_reused: 'This Idempotency-Key was already used (within 10 minutes) for a different request',
  idempotency_key_in_progress: 'The first request with this Idempotency-Key is still being answered; ask again later',
  target_busy: "A push server result (error_code): another batch or retry job is writing that server's target, or a directory nested in it or containing it",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The catalogue as Markdown, for the OpenAPI document's description (shown at /docs). */
export function errorCodesMarkdown(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, when]) => `| \`${code}\` | ${when} |`);
  return ['Every error answer is `{ detail, code }`.', '', '| code | when |', '|---|---|', ...rows].join('\n');
}
