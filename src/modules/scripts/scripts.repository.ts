import type { Kysely } from 'kysely';
import type { Database, ScriptRow } from '../../db/types.js';

export class ScriptsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<ScriptRow[]> {
    return this.db.selectFrom('scripts').selectAll().orderBy('id', 'asc').execute();
  }

  async get(id: number): Promise<ScriptRow | undefined> {
    return this.db.selectFrom('scripts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async create(row: Omit<ScriptRow, 'id'>): Promise<ScriptRow> {
    return this.db.insertInto('scripts').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: Partial<Pick<ScriptRow, 'name' | 'content'>>): Promise<ScriptRow | undefined> {
    if (Object.keys(patch).length === 0) return this.get(id);
    return this.db.updateTable('scripts').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('scripts').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
