/**
 * When `credential_reauth` is on, two server changes need the caller's own password: attaching
 * a password preset, and moving a server that holds a password to another host or port. Either
 * would make the service send a stored password to a machine of the caller's choosing, so a
 * stolen access token (or the API key, which has no password) must not be enough for them.
 */
import type { ServerRow } from '../../db/types.js';
import type { ServerInput } from './servers.input.js';

export function holdsPassword(row: Pick<ServerRow, 'password_enc' | 'password_preset_id'>): boolean {
  return Boolean(row.password_enc) || row.password_preset_id !== null;
}

export function movesAddress(current: Pick<ServerRow, 'host' | 'port'>, input: Pick<ServerInput, 'host' | 'port'>): boolean {
  return (input.host !== undefined && input.host.trim() !== current.host) || (input.port !== undefined && input.port !== current.port);
}

/** Why this create (current null) or update needs the caller's password, or null when it does not. */
export function reauthReason(current: ServerRow | null, input: ServerInput): string | null {
  const preset = input.password_preset_id;
  if (preset != null && preset !== current?.password_preset_id) return 'attaching a password preset';
  if (current && holdsPassword(current) && movesAddress(current, input)) return 'moving a server that holds a password to another address';
  return null;
}
