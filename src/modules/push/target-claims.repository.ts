import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../db/migrations/helpers.js';
import type { Database, PushTargetClaimRow } from '../../db/types.js';

export type NewClaim = Omit<PushTargetClaimRow, 'created_at'>;

/** Any fixed number: the PostgreSQL advisory lock that serialises claiming across processes. */
const CLAIM_LOCK = 725_301;

/** The claims on remote directories; written only here. */
export class TargetClaimsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts every claim that overlaps nothing live, in one transaction. `overlaps(candidate,
   * live)` decides nesting; exact duplicates are additionally refused by the primary key. Claims
   * whose lease ran out first go (their process died). Returns the live claim each refused
   * candidate ran into, by server id.
   */
  async claimAll(
    claims: NewClaim[],
    now: string,
    overlaps: (candidate: NewClaim, live: PushTargetClaimRow) => boolean,
  ): Promise<Map<number, PushTargetClaimRow>> {
    const refused = new Map<number, PushTargetClaimRow>();
    if (claims.length === 0) return refused;
    await this.db.transaction().execute(async (trx) => {
      // Nesting is not a key the database can enforce, so every claim is checked and inserted
      // under one lock: two processes never check at once. On SQLite the first statement below
      // writes (it drops expired claims), so the transaction holds the file's write lock before
      // it reads: processes sharing one file take turns instead of failing on a stale snapshot.
      if (isPostgres(trx as unknown as Kysely<unknown>)) await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      const ids = [...new Set(claims.map((c) => c.server_id))];
      const live: PushTargetClaimRow[] = [];
      // Chunked: SQLite caps bound parameters per statement.
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await trx.deleteFrom('push_target_claims').where('server_id', 'in', chunk).where('lease_expires_at', '<', now).execute();
        live.push(...(await trx.selectFrom('push_target_claims').selectAll().where('server_id', 'in', chunk).execute()));
      }
      const byServer = new Map<number, PushTargetClaimRow[]>();
      for (const l of live) byServer.set(l.server_id, [...(byServer.get(l.server_id) ?? []), l]);
      const accepted: NewClaim[] = [];
      for (const c of claims) {
        const hit = (byServer.get(c.server_id) ?? []).find((l) => overlaps(c, l));
        if (hit) refused.set(c.server_id, hit);
        else accepted.push(c);
      }
      for (let i = 0; i < accepted.length; i += 100) {
        await trx.insertInto('push_target_claims').values(accepted.slice(i, i + 100).map((c) => ({ ...c, created_at: now }))).execute();
      }
    });
    return refused;
  }

  /** Releases one holder's claim on one server (its transfer ended). */
  async release(holderKind: string, holderId: string, serverId: number): Promise<void> {
    await this.db
      .deleteFrom('push_target_claims')
      .where('holder_kind', '=', holderKind)
      .where('holder_id', '=', holderId)
      .where('server_id', '=', serverId)
      .execute();
  }

  /** Releases everything a holder still claims (its batch closed). */
  async releaseAll(holderKind: string, holderId: string): Promise<void> {
    await this.db.deleteFrom('push_target_claims').where('holder_kind', '=', holderKind).where('holder_id', '=', holderId).execute();
  }

  async renew(owner: string, until: string): Promise<void> {
    await this.db.updateTable('push_target_claims').set({ lease_expires_at: until }).where('lease_owner', '=', owner).execute();
  }

  /** Drops claims whose process stopped renewing them; returns how many. */
  async releaseExpired(now: string): Promise<number> {
    const r = await this.db.deleteFrom('push_target_claims').where('lease_expires_at', '<', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async list(): Promise<PushTargetClaimRow[]> {
    return this.db.selectFrom('push_target_claims').selectAll().orderBy('server_id').execute();
  }
}
