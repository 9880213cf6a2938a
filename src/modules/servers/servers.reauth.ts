/**
 * Changes that would make the service send a stored password to a machine of the caller's
 * choosing: attaching a password preset, or pointing a server whose stored password stays at
 * another address. With `credential_reauth` on they need the caller's own password (a stolen
 * access token is not enough). The API key, which has no password, may never make them,
 * whatever that setting says: it could otherwise aim a password server at a host it controls
 * and receive the password on the next connection. Key-authenticated servers reveal no secret
 * to the other end (SSH public-key authentication sends only a signature), so they move freely.
 */
import type { ServerRow } from '../../db/types.js';
import type { ServerInput } from './servers.input.js';

type PasswordColumns = Pick<ServerRow, 'password_enc' | 'password_preset_id'>;

export function holdsPassword(row: PasswordColumns): boolean {
  return Boolean(row.password_enc) || row.password_preset_id !== null;
}

export function movesAddress(current: Pick<ServerRow, 'host' | 'port'>, input: Pick<ServerInput, 'host' | 'port'>): boolean {
  return (input.host !== undefined && input.host.trim() !== current.host) || (input.port !== undefined && input.port !== current.port);
}

/** Another address, or the same one as another user: the password would log in somewhere new. */
function movesTarget(current: Pick<ServerRow, 'host' | 'port' | 'username'>, input: ServerInput): boolean {
  // A blank user name is stored as root.
  return movesAddress(current, input) || (input.username !== undefined && ((input.username ?? '').trim() || 'root') !== current.username);
}

/**
 * Whether the row after this update still holds a password the caller did not give in it: the
 * stored inline one (not replaced or cleared) or any preset (kept or attached). A new inline
 * password is the caller's own and reveals nothing.
 */
function keepsStoredPassword(current: PasswordColumns, input: ServerInput): boolean {
  const pw = input.password;
  if (pw) return false; // replaces both the inline password and the preset
  const preset = input.password_preset_id !== undefined ? input.password_preset_id : current.password_preset_id;
  // `""` means unchanged, null clears it; attaching a preset clears it too.
  const inlineKept = pw !== null && (input.password_preset_id ?? null) === null && Boolean(current.password_enc);
  return preset !== null || inlineKept;
}

/** Why this create (current null) or update needs the caller's password, or null when it does not. */
export function reauthReason(current: ServerRow | null, input: ServerInput): string | null {
  const preset = input.password_preset_id;
  if (preset != null && preset !== current?.password_preset_id) return 'attaching a password preset';
  if (current && holdsPassword(current) && movesAddress(current, input)) return 'moving a server that holds a password to another address';
  return null;
}

/** Why the API key may not make this create (current null) or update, or null when it may. */
export function apiKeyRefusal(current: ServerRow | null, input: ServerInput): string | null {
  const preset = input.password_preset_id;
  if (preset != null && preset !== current?.password_preset_id) return 'attaching a password preset';
  if (current && keepsStoredPassword(current, input) && movesTarget(current, input)) {
    return 'pointing a server that holds a password at another host, port or user';
  }
  return null;
}
