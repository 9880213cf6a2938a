/**
 * Rewrites the tags of every server carrying one tag. Tags are a JSON array in a text column, so
 * candidates are found by their JSON-quoted form (LIKE, wildcards escaped) and each is then
 * checked exactly after parsing; all changes of one call happen in one transaction.
 */
import { sql, type Kysely } from 'kysely';
import { nowIso } from '../../core/time.js';
import type { Database } from '../../db/types.js';
import { likeEscape } from './fleet-query.repository.js';
import { parseTags } from './servers.input.js';

export class ServerTagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** How many servers carry `tag` (exactly, after parsing). */
  async carrying(tag: string): Promise<number> {
    const rows = await this.db.selectFrom('servers').select('tags').where(sql<boolean>`tags like ${`%${likeEscape(JSON.stringify(tag))}%`} escape '!'`).execute();
    return rows.filter((r) => parseTags(r.tags).includes(tag)).length;
  }

  /**
   * Applies `change` to the tags of each server carrying `tag`; returns how many changed and, of
   * those, for how many `also` was already present (before the change).
   */
  async rewrite(tag: string, change: (tags: string[]) => string[], also?: string): Promise<{ servers: number; merged: number }> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('servers')
        .select(['id', 'tags'])
        .where(sql<boolean>`tags like ${`%${likeEscape(JSON.stringify(tag))}%`} escape '!'`)
        .orderBy('id')
        .execute();
      const at = nowIso();
      let servers = 0;
      let merged = 0;
      for (const row of rows) {
        const before = parseTags(row.tags);
        if (!before.includes(tag)) continue;
        if (also !== undefined && before.includes(also)) merged++;
        await trx.updateTable('servers').set({ tags: JSON.stringify(change(before)), updated_at: at }).where('id', '=', row.id).execute();
        servers++;
      }
      return { servers, merged };
    });
  }
}
