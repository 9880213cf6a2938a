/**
 * Resolving a server row into an `SshTarget`: the one place stored credentials are decrypted
 * for use. Inline credentials come first, then the referenced preset; the server's own user
 * name always wins over a preset's.
 */
import type { SshAuth, SshTarget } from '../../adapters/ssh/types.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError } from '../../core/errors.js';
import { toSsh2PrivateKey } from '../../core/ssh-keys.js';
import type { ServerRow } from '../../db/types.js';

/** Where preset secrets come from: the preset modules' repositories, as the composition root wires them. */
export interface PresetSources {
  passwordPresets: { findById(id: number): Promise<{ password_enc: string } | undefined> };
  sshKeyPresets: { findById(id: number): Promise<{ private_key_enc: string } | undefined> };
}

export interface TargetDeps extends PresetSources {
  cipher: Cipher;
}

export async function resolveTarget(d: TargetDeps, row: ServerRow): Promise<SshTarget> {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    username: row.username || 'root',
    auth: row.auth_type === 'password' ? await passwordAuth(d, row) : await keyAuth(d, row),
    hostKeyFingerprint: row.host_key_fingerprint,
  };
}

async function keyAuth(d: TargetDeps, row: ServerRow): Promise<SshAuth> {
  let stored = row.private_key_enc;
  if (!stored && row.ssh_key_preset_id !== null) {
    const preset = await d.sshKeyPresets.findById(row.ssh_key_preset_id);
    if (!preset) throw new BadRequestError(`The SSH key preset of server "${row.name}" no longer exists`, 'ssh_key_preset_not_found');
    stored = preset.private_key_enc;
  }
  if (!stored) throw new BadRequestError(`Server "${row.name}" has no SSH private key configured`, 'server_credentials_missing');
  return { type: 'key', privateKey: toSsh2PrivateKey(d.cipher.decrypt(stored)) };
}

async function passwordAuth(d: TargetDeps, row: ServerRow): Promise<SshAuth> {
  let stored = row.password_enc;
  if (!stored && row.password_preset_id !== null) {
    const preset = await d.passwordPresets.findById(row.password_preset_id);
    if (!preset) throw new BadRequestError(`The password preset of server "${row.name}" no longer exists`, 'preset_not_found');
    stored = preset.password_enc;
  }
  if (!stored) throw new BadRequestError(`Server "${row.name}" has no password configured`, 'server_credentials_missing');
  return { type: 'password', password: d.cipher.decrypt(stored) };
}
