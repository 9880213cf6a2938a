/**
 * `setIfAbsent` with a time to live, in the database: the first caller for a key within the TTL
 * gets true. Used for service notices about the cache, when the cache cannot arbitrate.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

export class NoticeClaimsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async claim(key: string, ttlSeconds: number, now = new Date()): Promise<boolean> {
    const at = now.toISOString();
    // ISO-8601 UTC text orders like time, so an expired claim is simply replaced.
    await this.db.deleteFrom('notice_claims').where('claim_key', '=', key).where('expires_at', '<=', at).execute();
    const res = await this.db
      .insertInto('notice_claims')
      .values({ claim_key: key, expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString() })
      .onConflict((oc) => oc.column('claim_key').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
