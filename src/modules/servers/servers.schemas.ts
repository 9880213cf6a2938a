import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../http/schemas.js';
import { PRIVATE_KEY_MAX } from '../ssh-key-presets/ssh-key-presets.schemas.js';

export { IdParams } from '../presets/presets.schemas.js';


export const AuthType = Type.Union([Type.Literal('key'), Type.Literal('password')]);

/** `reachable`: the last contact worked; `failing`: contacts fail since `ssh_failing_since`; `never`: never contacted. */
export const SshStatus = Type.Union([Type.Literal('reachable'), Type.Literal('failing'), Type.Literal('never')]);

export const ServerView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  username: Type.String(),
  auth_type: Type.String(),
  ssh_key_preset_id: Nullable(Type.Integer()),
  password_preset_id: Nullable(Type.Integer()),
  has_credentials: Type.Boolean(),
  target_path: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  host_key_fingerprint: Nullable(Type.String()),
  /** The agent's signal: `online`, `offline`, or `unknown` (no heartbeat ever: no agent). */
  status: Type.String(),
  last_heartbeat_at: Nullable(Type.String()),
  /** The SSH signal, from every contact the service makes (tests, pushes, commands, the probe). */
  ssh_status: SshStatus,
  /** When an SSH connection last worked. */
  ssh_last_ok_at: Nullable(Type.String()),
  /** When an SSH contact last failed, and its class. */
  ssh_last_error_at: Nullable(Type.String()),
  ssh_last_error: Nullable(Type.String({ description: 'refused, timeout, auth_failed, host_key_mismatch, dns, closed or other' })),
  /** Since when every contact has failed; null while contacts work. */
  ssh_failing_since: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Host = Type.String({ minLength: 1, maxLength: 255 });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });

/** Optional in both bodies, with the same rules. */
const details = {
  username: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  auth_type: Type.Optional(AuthType),
  ssh_key_preset_id: Type.Optional(Nullable(Id)),
  password_preset_id: Type.Optional(Nullable(Id)),
  /** Write-only; "" leaves the stored key unchanged, null removes it. */
  private_key: Type.Optional(Nullable(Type.String({ maxLength: PRIVATE_KEY_MAX }))),
  /** Write-only; "" leaves the stored password unchanged, null removes it. */
  password: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  target_path: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  tags: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 }))),
  host_key_fingerprint: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  /** The caller's own password, needed (with the setting credential_reauth on) to attach a
   *  password preset or to move a server holding a password to another host or port. */
  current_password: Type.Optional(Type.String({ maxLength: 1024 })),
};

export const CreateServerBody = Type.Object({
  name: Name,
  host: Host,
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 22 })),
  ...details,
});

export const UpdateServerBody = Type.Object({
  name: Type.Optional(Name),
  host: Type.Optional(Host),
  port: Type.Optional(Port),
  ...details,
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  latency_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});
export type AuthType = Static<typeof AuthType>;
export type ServerView = Static<typeof ServerView>;
export type SshStatus = Static<typeof SshStatus>;
export type CreateServerBody = Static<typeof CreateServerBody>;
export type UpdateServerBody = Static<typeof UpdateServerBody>;
export type TestResult = Static<typeof TestResult>;
