import type { Kysely } from 'kysely';
import type { Database, SettingRow } from '../../db/types.js';
import { nowIso } from '../../core/time.js';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  all(): Promise<SettingRow[]> {
    return this.db.selectFrom('settings').selectAll().orderBy('key').execute();
  }

  async get(key: string): Promise<SettingRow | undefined> {
    return this.db.selectFrom('settings').selectAll().where('key', '=', key).executeTakeFirst();
  }

  async upsert(key: string, value: string | null): Promise<SettingRow> {
    const row = { key, value, updated_at: nowIso() };
    await this.db
      .insertInto('settings')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
      .execute();
    return row;
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', key).execute();
  }
}
