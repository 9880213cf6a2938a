import type { Kysely } from 'kysely';
import type { Database, SshKeyPresetRow } from '../../db/types.js';

export interface SshKeyPresetPatch {
  name?: string;
  username?: string;
  private_key_enc?: string;
  public_key?: string;
}

export class SshKeyPresetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<SshKeyPresetRow[]> {
    return this.db.selectFrom('ssh_key_presets').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<SshKeyPresetRow | undefined> {
    return this.db.selectFrom('ssh_key_presets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  create(values: {
    name: string;
    username: string;
    private_key_enc: string;
    public_key: string;
    created_at: string;
  }): Promise<SshKeyPresetRow> {
    return this.db.insertInto('ssh_key_presets').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: SshKeyPresetPatch): Promise<SshKeyPresetRow | undefined> {
    if (Object.keys(patch).length === 0) return this.findById(id);
    return this.db.updateTable('ssh_key_presets').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Servers that used the preset fall back to their inline key (or none). */
  async delete(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx.deleteFrom('ssh_key_presets').where('id', '=', id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx.updateTable('servers').set({ ssh_key_preset_id: null }).where('ssh_key_preset_id', '=', id).execute();
      return true;
    });
  }
}
