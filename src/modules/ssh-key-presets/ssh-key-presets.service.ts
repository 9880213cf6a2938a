/**
 * SSH key presets: named private keys servers can share. The private key is validated
 * and encrypted at rest; the public key is kept in clear (it is public) and derived when absent.
 */
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import { NotFoundError } from '../../core/errors.js';
import { parsePrivateKey } from '../../core/ssh-keys.js';
import { nowIso } from '../../core/time.js';
import type { AdminRow, SshKeyPresetRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { presetName, presetUsername } from '../presets/index.js';
import type { SshKeyPresetPatch, SshKeyPresetsRepository } from './ssh-key-presets.repository.js';
import type { CreateSshKeyPresetBody, UpdateSshKeyPresetBody } from './ssh-key-presets.schemas.js';

export interface SshKeyPresetsDeps {
  repo: SshKeyPresetsRepository;
  cipher: Cipher;
  audit: AuditService;
  /** Throws (400 wrong, 429 locked out) unless `password` is the admin's own; counts and audits failures. */
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

const NOT_FOUND = 'SSH key preset not found';

function suppliedPublicKey(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return v === '' ? null : v;
}

/** `type base64` without the comment, so keys compare regardless of how they were pasted. */
function keyFields(line: string): string {
  return line.trim().split(/\s+/).slice(0, 2).join(' ');
}

export class SshKeyPresetsService {
  constructor(private readonly d: SshKeyPresetsDeps) {}

  async list() {
    return (await this.d.repo.list()).map((p) => ({
      id: p.id,
      name: p.name,
      username: p.username,
      public_key: p.public_key ?? '',
      private_key_set: Boolean(p.private_key_enc),
      created_at: p.created_at,
    }));
  }

  async create(actor: Actor, input: CreateSshKeyPresetBody): Promise<{ id: number; name: string }> {
    const key = parsePrivateKey(input.private_key);
    const row = await this.d.repo.create({
      name: presetName(input.name),
      username: presetUsername(input.username),
      private_key_enc: this.d.cipher.encrypt(key.normalized),
      public_key: suppliedPublicKey(input.public_key) ?? key.publicKey,
      created_at: nowIso(),
    });
    await this.d.audit.record(actor, 'create_ssh_key_preset', {
      type: 'ssh_key_preset',
      id: row.id,
      detail: `name=${row.name} type=${key.keyType}`,
    });
    return { id: row.id, name: row.name };
  }

  async update(actor: Actor, id: number, input: UpdateSshKeyPresetBody): Promise<{ id: number; name: string }> {
    const current = await this.get(id);
    const patch: SshKeyPresetPatch = {};
    if (input.name !== undefined) patch.name = presetName(input.name);
    if (input.username !== undefined) patch.username = presetUsername(input.username);
    const newKey = input.private_key !== undefined ? parsePrivateKey(input.private_key) : null;
    if (newKey) patch.private_key_enc = this.d.cipher.encrypt(newKey.normalized);

    const given = suppliedPublicKey(input.public_key);
    if (given) {
      patch.public_key = given;
    } else if (input.public_key !== undefined) {
      // An explicit blank asks for the public key of the (new or stored) private key.
      patch.public_key = (newKey ?? parsePrivateKey(this.d.cipher.decrypt(current.private_key_enc))).publicKey;
    } else if (newKey && this.storedKeyIsDerived(current)) {
      // A public key is derived when none is given and none is stored. A stored key that is merely the old private key's
      // own public half would be stale after the rotation, so it is re-derived as well.
      patch.public_key = newKey.publicKey;
    }

    const row = await this.d.repo.update(id, patch);
    if (!row) throw new NotFoundError(NOT_FOUND, 'ssh_key_preset_not_found');
    const changed = Object.keys(patch).map((k) => (k === 'private_key_enc' ? 'private_key' : k));
    await this.d.audit.record(actor, 'update_ssh_key_preset', {
      type: 'ssh_key_preset',
      id,
      detail: `fields=${changed.join(',')}`,
    });
    return { id: row.id, name: row.name };
  }

  async reveal(actor: Actor, admin: AdminRow, id: number, currentPassword: string) {
    await this.d.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/ssh-key-presets/{id}/reveal');
    const row = await this.get(id);
    const privateKey = this.d.cipher.decrypt(row.private_key_enc);
    await this.d.audit.record(actor, 'reveal_ssh_key_preset', { type: 'ssh_key_preset', id });
    return { id: row.id, name: row.name, private_key: privateKey, public_key: row.public_key ?? '' };
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!(await this.d.repo.delete(id))) throw new NotFoundError(NOT_FOUND, 'ssh_key_preset_not_found');
    await this.d.audit.record(actor, 'delete_ssh_key_preset', { type: 'ssh_key_preset', id });
  }

  private async get(id: number): Promise<SshKeyPresetRow> {
    const row = await this.d.repo.findById(id);
    if (!row) throw new NotFoundError(NOT_FOUND, 'ssh_key_preset_not_found');
    return row;
  }

  private storedKeyIsDerived(row: SshKeyPresetRow): boolean {
    if (!row.public_key?.trim()) return true;
    try {
      return keyFields(row.public_key) === parsePrivateKey(this.d.cipher.decrypt(row.private_key_enc)).publicKey;
    } catch {
      // The old key is unreadable (ENCRYPTION_KEY changed, say): keep what the admin stored.
      return false;
    }
  }
}
