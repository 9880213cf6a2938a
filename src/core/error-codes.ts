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
  totp_not_set_up: 'TOTP cannot be turned on before its setup step ran',
  wrong_password: 'The current password given for re-authentication is wrong',
  api_key_refused: 'The API key may not do this: it cannot manage administrators, reveal secrets or weaken access control',
  login_locked: 'Too many failed sign-ins: wait the seconds in Retry-After',
  token_invalid: 'The access token is invalid, expired or revoked: sign in again',
  api_key_invalid: 'The X-API-Key is wrong',
  session_invalid: 'The refresh token is invalid or was revoked: sign in again',
  session_expired: 'The session reached its lifetime: sign in again',
  reauth_required: 'credential_reauth is on: send current_password with this change',
  agent_token_invalid: 'The monitoring agent presented an unknown token',
  // Administrators.
  admin_not_found: 'No administrator with that id',
  last_admin: 'The last administrator cannot be deleted',
  username_invalid: 'The user name has characters or a length that are not allowed',
  username_taken: 'An administrator with that user name exists',
  // Settings and stored secrets.
  setting_unknown: 'No such setting, or it cannot be changed here',
  setting_immutable: 'The setting is fixed by the deployment and cannot be changed at run time',
  setting_invalid_value: 'The value is not allowed for this setting (the detail names the range)',
  secret_not_stored: 'The secret asked for has not been stored',
  // Login allowlist.
  allowlist_entry_invalid: 'An allowlist entry is not an IPv4 address, an IPv4/bits range or a domain name',
  allowlist_entry_not_found: 'The entry is not in the manual allowlist',
  subscription_fetch_failed: 'The allowlist subscription URL could not be fetched',
  subscription_empty: 'The subscription yielded no host',
  // Messenger notifications.
  messenger_not_configured: 'The bot token and chat id are not both set',
  messenger_api_error: 'The messenger bot API refused or failed the request',
  // SSH.
  ssh_unreachable: 'The server could not be reached over SSH',
  ssh_auth_failed: 'The server refused the SSH credentials',
  ssh_host_key_mismatch: 'The server presented a different host key than the pinned one',
  ssh_connection_lost: 'The SSH connection broke during the operation',
  ssh_test_failed: 'The test command on the server timed out or failed',
  // Servers and credentials.
  server_not_found: 'No server with that id',
  server_name_taken: 'Another server has that name',
  server_credentials_missing: 'The server has no usable key or password (or its preset was deleted)',
  server_id_required: 'server_id is required',
  server_id_invalid: 'server_id is not a number',
  name_required: 'The name must not be blank',
  host_invalid: 'The host is not a host name, an IPv4 or an IPv6 address',
  fingerprint_invalid: 'The host key fingerprint is not SHA256:<43 base64 characters>',
  credential_source_ambiguous: 'Give a secret or a preset, not both',
  private_key_invalid: 'The private key is not a PEM or OpenSSH private key',
  private_key_encrypted: 'The private key is protected by a passphrase: give an unencrypted key',
  private_key_unsupported: 'The private key type is not supported: use the OpenSSH format',
  ssh_key_preset_not_found: 'No SSH key preset with that id',
  preset_not_found: 'No password preset with that id',
  // Notification channels.
  channel_not_found: 'No notification channel with that id',
  channel_name_exists: 'Another notification channel already has that name',
  channel_type_invalid: 'The channel type is not one of the supported types',
  channel_type_immutable: 'The type of a notification channel cannot change after it is created',
  channel_config_invalid: "The channel configuration does not match its type's schema (the detail names the field)",
  channel_event_invalid: 'An event is not one a channel can subscribe to',
  channel_private_target: 'The channel target is a private or loopback address and notify_allow_private_targets is off',
  channel_delivery_failed: "The channel's provider refused the message or could not be reached (the detail has its error)",
  agent_install_failed: 'The monitoring agent could not be installed on the server',
  api_base_url_invalid: 'api_base_url must be an http(s) URL without credentials or query',
  api_base_url_missing: 'No api_base_url given and none set in the settings',
  // Push, preview and history.
  batch_not_found: 'No push batch with that id',
  batch_exists: 'A batch with that batch_id was already started',
  rsync_failed: 'rsync failed on the server (the detail has its message)',
  retry_job_not_found: 'No retry job with that id',
  source_unreadable: 'The source directory cannot be read',
  source_empty: 'The source directory holds no readable file',
  local_file_unreadable: 'The local file cannot be read',
  path_outside_source: 'The relative path leaves the source directory',
  // Scripts and schedules.
  script_not_found: 'No script with that id',
  script_empty: 'The script has no content',
  script_source_ambiguous: 'Give either script_id or script_content, not both',
  schedule_not_found: 'No schedule with that id',
  cron_invalid: 'The cron expression is not valid (five fields)',
  // Remote files.
  operation_invalid: 'The file operation is not one this endpoint knows',
  new_path_required: 'A rename needs new_path',
  remote_permission_denied: 'The server refused to write there',
  remote_dir_not_found: 'The directory does not exist on the server',
  sftp_failed: 'SFTP refused the operation (the detail has its message)',
  upload_failed: 'The upload to the server failed',
  // Paths and staging.
  path_outside_staging: 'The path resolves outside the staging area',
  protected_path: 'The path is a protected system directory',
  path_required: 'A path is required',
  path_invalid: 'The path contains a NUL byte or a ".." component',
  path_not_found: 'No such file or directory',
  path_exists: 'An entry with that name already exists',
  path_too_long: 'The path is too long',
  not_a_directory: 'The path is not a directory',
  not_a_file: 'The path is not a regular file',
  symlink_loop: 'Too many levels of symbolic links',
  permission_denied: 'The service has no permission for that path',
  new_name_required: 'A rename needs new_name',
  name_invalid: 'The new name is empty, "." or "..", or contains a NUL byte',
  preview_too_large: 'The file is too large to preview',
  io_error: 'A local file operation failed',
  // Uploads and ZIP archives.
  not_multipart: 'The upload must be multipart/form-data',
  multipart_invalid: 'The multipart body could not be read',
  file_required: 'No file was sent',
  file_empty: 'The uploaded file is empty',
  file_name_invalid: 'The file name is not allowed',
  file_field_unexpected: 'The file part must be named "file"',
  one_file_only: 'Only one file can be uploaded per request',
  upload_field_order: 'Fields must come before the file part',
  field_too_long: 'A form field is too long',
  upload_too_large: 'The file exceeds the upload limit',
  zip_name_invalid: 'The file name must end in .zip',
  zip_invalid: 'The file is not a valid ZIP archive',
  zip_empty: 'The archive contains no files',
  zip_too_large: 'The archive expands beyond the size limit',
  zip_extract_failed: 'The archive could not be extracted',
  // Wallpapers (sign-in page).
  wallpaper_not_found: 'No stored wallpaper with that name',
  wallpaper_source_failed: 'The wallpaper source failed',
  // ZIP uploads.
  zip_name_too_long: 'A ZIP entry name has a path segment longer than 255 bytes of UTF-8',
  zip_name_undecodable: 'A ZIP entry name is not valid in its encoding (marked UTF-8, or the zip_name_encoding setting)',
  // Work that must happen once.
  idempotency_key_invalid: 'The Idempotency-Key header is not 1 to 128 visible ASCII characters',
  idempotency_key_reused: 'This Idempotency-Key was already used (within 10 minutes) for a different request',
  idempotency_key_in_progress: 'The first request with this Idempotency-Key is still being answered; ask again later',
  target_busy: "A push server result (error_code): another batch or retry job is writing that server's target, or a directory nested in it or containing it",
  // Console II — remote files.

  // Console II — staging.
  staging_bulk_criteria: 'A bulk delete of staging directories needs exactly one of `names` (not empty) or `older_than_days`',

  // Console II — tags.
  tag_invalid: 'A tag name must be 1 to 64 characters once trimmed, without control characters',
  tag_not_found: 'No server carries that tag',
  tag_unchanged: 'The new tag name is the same as the old one',
  tag_exists: 'Servers already carry the new tag name: send `merge: true` to merge the two tags',

  // Console II — schedules.

  // Console II — scripts.
  script_run_not_found: 'No script run with that run_id (runs are kept with their output; an unknown or mistyped id)',

  // Console II — alerts and monitoring.

  // Console II — settings, notifications and allowlist.
  allowlist_no_subscription: 'Refresh now needs a stored subscription URL',

  // Console II — credentials, administrators and audit.
  audit_entry_not_found: 'No audit log entry with that id',

  // Disk full and backups (issue 27).
  insufficient_storage: "507: this host's disk (staging area or data directory) is full or over quota; nothing was kept, free space and retry",

  // PostgreSQL faults (issue 27).
  service_unavailable: 'A store the request needs (the cache, the database) cannot be reached right now; nothing was changed: retry shortly',
  database_unavailable: 'The database cannot be reached right now (restart, failover, network); nothing was stored: retry after Retry-After',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The catalogue as Markdown, for the OpenAPI document's description (shown at /docs). */
export function errorCodesMarkdown(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, when]) => `| \`${code}\` | ${when} |`);
  return ['Every error answer is `{ detail, code }`.', '', '| code | when |', '|---|---|', ...rows].join('\n');
}
