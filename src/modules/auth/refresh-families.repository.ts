/** Refresh token families: one row per login, naming the one refresh token that may be used next. */
import type { Kysely } from 'kysely';
import type { Database, RefreshFamilyRow } from '../../db/types.js';

export class RefreshFamiliesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A new login's family `id` (chosen by the caller, so its tokens can be signed while the row is
   * written), with `jti` as the refresh token that may be used next.
   */
  async create(family: { id: string; adminId: number; jti: string; createdAt: string }): Promise<void> {
    await this.db
      .insertInto('refresh_families')
      .values({ id: family.id, admin_id: family.adminId, current_jti: family.jti, created_at: family.createdAt })
      .execute();
  }

  find(id: string): Promise<RefreshFamilyRow | undefined> {
    return this.db.selectFrom('refresh_families').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Moves the family from `fromJti` to `toJti`; false when `fromJti` is no longer the current one
   * or the family is revoked. One conditional UPDATE: of two requests presenting the same token,
   * exactly one rotates.
   */
  async rotate(id: string, fromJti: string, toJti: string): Promise<boolean> {
    const r = await this.db
      .updateTable('refresh_families')
      .set({ current_jti: toJti })
      .where('id', '=', id)
      .where('current_jti', '=', fromJti)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async revoke(id: string): Promise<void> {
    await this.db.updateTable('refresh_families').set({ revoked: 1 }).where('id', '=', id).execute();
  }

  async revokeAllOf(adminId: number): Promise<void> {
    await this.db.updateTable('refresh_families').set({ revoked: 1 }).where('admin_id', '=', adminId).execute();
  }

  /** Families older than any session may live: their tokens are refused by age anyway. */
  async pruneCreatedBefore(iso: string): Promise<void> {
    await this.db.deleteFrom('refresh_families').where('created_at', '<', iso).execute();
  }
}
