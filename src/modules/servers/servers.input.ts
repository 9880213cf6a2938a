/**
 * Turning request bodies into stored server rows: normalization, business-rule checks (400 with
 * a clear detail) and encryption of inline credentials. Nothing here touches the network.
 */
import ipaddr from 'ipaddr.js';
import { normalizeFingerprint } from '../../adapters/ssh/host-key.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError } from '../../core/errors.js';
import { parsePrivateKey } from '../../core/ssh-keys.js';
import type { ServerRow } from '../../db/types.js';
import type { AuthType, CreateServerBody, ServerView, SshStatus, UpdateServerBody } from './servers.schemas.js';

/** What create and update bodies share; every field optional (an update sends a subset). */
export type ServerInput = Partial<CreateServerBody> & UpdateServerBody;

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/;
// No leading '-': the name also reaches OpenSSH's command line (rsync -e ssh), where it would be an option.
const USERNAME = /^[A-Za-z0-9._][A-Za-z0-9._@-]{0,99}$/;
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

export function serverName(value: string): string {
  const v = value.trim();
  if (!v) throw new BadRequestError('Server name must not be blank', 'name_required');
  return v;
}

export function serverHost(value: string): string {
  const v = value.trim();
  const bare = v.startsWith('[') && v.endsWith(']') ? v.slice(1, -1) : v;
  if (ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))) return bare;
  if (HOSTNAME.test(v) && !/^[\d.]+$/.test(v)) return v;
  throw new BadRequestError('Invalid host: expected a host name, an IPv4 address or an IPv6 address', 'host_invalid');
}

/** Blank or absent means `root`. */
export function serverUsername(value: string | null | undefined): string {
  const v = (value ?? '').trim();
  if (v === '') return 'root';
  if (!USERNAME.test(v)) {
    throw new BadRequestError('Invalid username: use letters, digits and . _ - @ (not starting with -), at most 100 characters', 'username_invalid');
  }
  return v;
}

/** Accepts `SHA256:…` as `ssh-keygen -l` prints it, with or without the prefix and padding. */
export function hostKeyFingerprint(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (v === '') return null;
  const fp = normalizeFingerprint(v);
  if (!FINGERPRINT.test(fp)) throw new BadRequestError('Invalid host_key_fingerprint: expected SHA256:<43 base64 characters>', 'fingerprint_invalid');
  return fp;
}

export function targetPath(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : value;
}

/** Trimmed, blanks dropped, duplicates dropped (first occurrence kept). */
export function normalizeTags(tags: string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
}

/** When only one kind of credential is given, it decides the auth type. */
export function inferAuthType(input: ServerInput): AuthType {
  if (input.auth_type) return input.auth_type;
  const hasKey = Boolean(input.private_key) || input.ssh_key_preset_id != null;
  const hasPassword = Boolean(input.password) || input.password_preset_id != null;
  return hasPassword && !hasKey ? 'password' : 'key';
}

export interface CredentialPatch {
  private_key_enc?: string | null;
  ssh_key_preset_id?: number | null;
  password_enc?: string | null;
  password_preset_id?: number | null;
}

/**
 * Each kind of credential comes from one source: an inline secret or a preset. Choosing one
 * clears the other, so what is stored is always what the admin picked last. `""` for an inline
 * secret means "unchanged" (edit forms send blank write-only fields), `null` removes it.
 */
export function credentialPatch(input: ServerInput, cipher: Cipher): CredentialPatch {
  const patch: CredentialPatch = {};
  const key = input.private_key;
  if (key && input.ssh_key_preset_id != null) {
    throw new BadRequestError('Give either private_key or ssh_key_preset_id, not both', 'credential_source_ambiguous');
  }
  if (key) {
    patch.private_key_enc = cipher.encrypt(parsePrivateKey(key).normalized);
    patch.ssh_key_preset_id = null;
  } else if (key === null) {
    patch.private_key_enc = null;
  }
  if (input.ssh_key_preset_id !== undefined) {
    patch.ssh_key_preset_id = input.ssh_key_preset_id;
    if (input.ssh_key_preset_id !== null) patch.private_key_enc = null;
  }

  const pw = input.password;
  if (pw && input.password_preset_id != null) {
    throw new BadRequestError('Give either password or password_preset_id, not both', 'credential_source_ambiguous');
  }
  if (pw) {
    patch.password_enc = cipher.encrypt(pw);
    patch.password_preset_id = null;
  } else if (pw === null) {
    patch.password_enc = null;
  }
  if (input.password_preset_id !== undefined) {
    patch.password_preset_id = input.password_preset_id;
    if (input.password_preset_id !== null) patch.password_enc = null;
  }
  return patch;
}

/** Whether the credentials the auth type needs are configured (inline or via a preset). */
export function hasCredentials(row: Pick<ServerRow, 'auth_type' | 'private_key_enc' | 'ssh_key_preset_id' | 'password_enc' | 'password_preset_id'>): boolean {
  return row.auth_type === 'password'
    ? Boolean(row.password_enc) || row.password_preset_id !== null
    : Boolean(row.private_key_enc) || row.ssh_key_preset_id !== null;
}

export function parseTags(stored: string): string[] {
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** The public shape: every column except the encrypted secrets and the agent token hash. */
export function toServerView(row: ServerRow): ServerView {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    username: row.username,
    auth_type: row.auth_type,
    ssh_key_preset_id: row.ssh_key_preset_id,
    password_preset_id: row.password_preset_id,
    has_credentials: hasCredentials(row),
    target_path: row.target_path,
    tags: parseTags(row.tags),
    host_key_fingerprint: row.host_key_fingerprint,
    status: row.status,
    last_heartbeat_at: row.last_heartbeat_at,
    ssh_status: sshStatusOf(row),
    ssh_last_ok_at: row.ssh_last_ok_at,
    ssh_last_error_at: row.ssh_last_error_at,
    ssh_last_error: row.ssh_last_error,
    ssh_failing_since: row.ssh_failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}


/** The SSH signal of a row: failing while a streak of failures runs, else reachable once contacted. */
export function sshStatusOf(row: Pick<ServerRow, 'ssh_failing_since' | 'ssh_last_ok_at'>): SshStatus {
  if (row.ssh_failing_since) return 'failing';
  return row.ssh_last_ok_at ? 'reachable' : 'never';
}
