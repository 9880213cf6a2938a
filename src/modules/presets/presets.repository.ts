import type { Kysely } from 'kysely';
import type { Database, PasswordPresetRow } from '../../db/types.js';

export interface PasswordPresetPatch {
  name?: string;
  username?: string;
  password_enc?: string;
}

export class PresetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<PasswordPresetRow[]> {
    return this.db.selectFrom('password_presets').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<PasswordPresetRow | undefined> {
    return this.db.selectFrom('password_presets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  create(values: { name: string; username: string; password_enc: string; created_at: string }): Promise<PasswordPresetRow> {
    return this.db.insertInto('password_presets').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: PasswordPresetPatch): Promise<PasswordPresetRow | undefined> {
    if (Object.keys(patch).length === 0) return this.findById(id);
    return this.db.updateTable('password_presets').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Servers that used the preset fall back to their inline credentials (or none): the foreign
   * key `servers.password_preset_id` is ON DELETE SET NULL, so this module never writes `servers`.
   */
  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('password_presets').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
