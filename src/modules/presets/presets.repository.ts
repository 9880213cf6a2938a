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

  /** Servers that used the preset fall back to their inline credentials (or none). */
  async delete(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx.deleteFrom('password_presets').where('id', '=', id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx.updateTable('servers').set({ password_preset_id: null }).where('password_preset_id', '=', id).execute();
      return true;
    });
  }
}
