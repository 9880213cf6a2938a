/**
 * Password presets: named login credentials servers can share. The password is
 * encrypted with the container cipher and leaves the service only through `reveal`, which
 * re-checks the caller's own password.
 */
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import type { AdminRow, PasswordPresetRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { PasswordPresetPatch, PresetsRepository } from './presets.repository.js';
import type { CreatePresetBody, UpdatePresetBody } from './presets.schemas.js';

export interface PresetsDeps {
  repo: PresetsRepository;
  cipher: Cipher;
  audit: AuditService;
  /** Throws (400 wrong, 429 locked out) unless `password` is the admin's own; counts and audits failures. */
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

/** Blank or absent user names mean `root`, for password and SSH key presets alike. */
export function presetUsername(value: string | null | undefined): string {
  const v = (value ?? '').trim();
  return v === '' ? 'root' : v;
}

export function presetName(value: string): string {
  const v = value.trim();
  if (!v) throw new BadRequestError('Name must not be blank', 'name_required');
  return v;
}

export class PresetsService {
  constructor(private readonly d: PresetsDeps) {}

  async list() {
    return (await this.d.repo.list()).map((p) => ({ id: p.id, name: p.name, username: p.username, created_at: p.created_at }));
  }

  async create(actor: Actor, input: CreatePresetBody): Promise<{ id: number; name: string }> {
    const row = await this.d.repo.create({
      name: presetName(input.name),
      username: presetUsername(input.username),
      password_enc: this.d.cipher.encrypt(input.encrypted_pw),
      created_at: nowIso(),
    });
    await this.d.audit.record(actor, 'create_preset', { type: 'preset', id: row.id, detail: `name=${row.name}` });
    return { id: row.id, name: row.name };
  }

  async update(actor: Actor, id: number, input: UpdatePresetBody): Promise<{ id: number; name: string }> {
    await this.get(id);
    const patch: PasswordPresetPatch = {};
    if (input.name !== undefined) patch.name = presetName(input.name);
    if (input.username !== undefined) patch.username = presetUsername(input.username);
    if (input.encrypted_pw !== undefined) patch.password_enc = this.d.cipher.encrypt(input.encrypted_pw);
    const row = await this.d.repo.update(id, patch);
    if (!row) throw new NotFoundError('Preset not found', 'preset_not_found');
    const changed = Object.keys(patch).map((k) => (k === 'password_enc' ? 'password' : k));
    await this.d.audit.record(actor, 'update_preset', { type: 'preset', id, detail: `fields=${changed.join(',')}` });
    return { id: row.id, name: row.name };
  }

  async reveal(actor: Actor, admin: AdminRow, id: number, currentPassword: string) {
    await this.d.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/presets/{id}/reveal');
    const row = await this.get(id);
    // A DecryptionError (ENCRYPTION_KEY changed) becomes a 500 with a safe message.
    const password = this.d.cipher.decrypt(row.password_enc);
    await this.d.audit.record(actor, 'reveal_preset', { type: 'preset', id });
    return { id: row.id, name: row.name, password };
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!(await this.d.repo.delete(id))) throw new NotFoundError('Preset not found', 'preset_not_found');
    await this.d.audit.record(actor, 'delete_preset', { type: 'preset', id });
  }

  private async get(id: number): Promise<PasswordPresetRow> {
    const row = await this.d.repo.findById(id);
    if (!row) throw new NotFoundError('Preset not found', 'preset_not_found');
    return row;
  }
}
