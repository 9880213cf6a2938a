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

  /**
   * Servers that used the preset fall back to their inline key (or none): the foreign key
   * `servers.ssh_key_preset_id` is ON DELETE SET NULL, so this module never writes `servers`.
   */
  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('ssh_key_presets').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
