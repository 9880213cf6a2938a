/**
 * The server form's values and the request body they become. Field names are the body's, so a
 * 422's `body.<field>` errors land on the right inputs (applyFieldErrors).
 */
import type { CreateServerBody, ServerView, UpdateServerBody } from '@server/modules/servers/servers.schemas';
import { ApiError } from '../../api/errors';

export type CredentialSource = 'inline' | 'preset';

export interface ServerFormValues {
  name: string;
  host: string;
  port: number | string;
  username: string;
  tags: string[];
  target_path: string;
  auth_type: 'key' | 'password';
  key_source: CredentialSource;
  private_key: string;
  ssh_key_preset_id: string | null;
  password_source: CredentialSource;
  password: string;
  password_preset_id: string | null;
}

export function initialValues(s: ServerView | null): ServerFormValues {
  return {
    name: s?.name ?? '',
    host: s?.host ?? '',
    port: s?.port ?? 22,
    username: s?.username ?? 'root',
    tags: s?.tags ?? [],
    target_path: s?.target_path ?? '',
    auth_type: s?.auth_type === 'password' ? 'password' : 'key',
    key_source: s?.ssh_key_preset_id != null ? 'preset' : 'inline',
    private_key: '',
    ssh_key_preset_id: s?.ssh_key_preset_id != null ? String(s.ssh_key_preset_id) : null,
    password_source: s?.password_preset_id != null ? 'preset' : 'inline',
    password: '',
    password_preset_id: s?.password_preset_id != null ? String(s.password_preset_id) : null,
  };
}

/**
 * Only the credential of the chosen auth type is sent. An empty inline secret is left out: on
 * create there is none, on edit the stored one stays (the API reads a missing field as "unchanged").
 * A preset replaces an inline secret and vice versa (the API clears the other source).
 */
export function toBody(v: ServerFormValues): CreateServerBody & UpdateServerBody {
  const body: CreateServerBody & UpdateServerBody = {
    name: v.name.trim(),
    host: v.host.trim(),
    port: Number(v.port),
    username: v.username.trim() || null,
    tags: v.tags,
    target_path: v.target_path.trim() || null,
    auth_type: v.auth_type,
  };
  if (v.auth_type === 'key') {
    if (v.key_source === 'preset') body.ssh_key_preset_id = v.ssh_key_preset_id ? Number(v.ssh_key_preset_id) : null;
    else if (v.private_key.trim()) body.private_key = v.private_key;
  } else if (v.password_source === 'preset') {
    body.password_preset_id = v.password_preset_id ? Number(v.password_preset_id) : null;
  } else if (v.password) {
    body.password = v.password;
  }
  return body;
}

/** The refusal the API answers when `credential_reauth` wants the caller's password. */
export function needsReauth(err: unknown): err is ApiError {
  return err instanceof ApiError && err.code === 'reauth_required';
}
