/**
 * The notification outbox table. Rows are claimed with a lease: one UPDATE that only takes rows
 * nobody holds or whose lease ran out, so with two processes on PostgreSQL a row is taken by one
 * (the second UPDATE re-checks the lease condition on the row the first one changed and skips
 * it), and a row held by a process that died is taken again once its lease has expired. Every
 * later write checks the lease is still ours.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database, NotificationOutboxRow, NotificationOutboxTable } from '../../db/types.js';

export type NewOutboxRow = Insertable<NotificationOutboxTable>;

/** Rows per INSERT: 10 columns each stays far below both dialects' bound-parameter limits. */
const CHUNK = 300;

export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(rows: NewOutboxRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db.insertInto('notification_outbox').values(rows.slice(i, i + CHUNK)).execute();
    }
  }

  /** Which of these dedup keys already have a row created at or after `since`. */
  async recentDedupKeys(keys: string[], since: string): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('notification_outbox')
      .select('dedup_key')
      .where('dedup_key', 'in', keys)
      .where('created_at', '>=', since)
      .execute();
    return new Set(rows.map((r) => r.dedup_key as string));
  }

  /** Leases up to `limit` due rows, leaving out those for the `busy` destinations (still sending); answers the rows it took. */
  async claimDue(owner: string, now: string, until: string, limit: number, busy: string[] = []): Promise<NotificationOutboxRow[]> {
    let query = this.db
      .selectFrom('notification_outbox')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]));
    if (busy.length > 0) query = query.where('destination', 'not in', busy);
    const candidates = await query.orderBy('id').limit(limit).execute();
    if (candidates.length === 0) return [];
    return this.db
      .updateTable('notification_outbox')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where(
        'id',
        'in',
        candidates.map((c) => c.id),
      )
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .returningAll()
      .execute();
  }

  /** Extends the lease of those rows still leased to `owner` and pending; answers their ids. */
  async renew(ids: number[], owner: string, until: string): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('notification_outbox')
      .set({ lease_expires_at: until })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'pending')
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async delivered(id: number, owner: string, at: string, attempts: number): Promise<void> {
    await this.mine(id, owner, { state: 'delivered', delivered_at: at, attempts, last_error: null });
  }

  /** Back to pending for another attempt at `next` (attempts counted), or without counting one (rate limit). */
  async later(id: number, owner: string, next: string, attempts: number, error: string | null): Promise<void> {
    await this.mine(id, owner, { state: 'pending', next_attempt_at: next, attempts, last_error: error });
  }

  async failed(id: number, owner: string, attempts: number, error: string): Promise<void> {
    await this.mine(id, owner, { state: 'failed', attempts, last_error: error });
  }

  /** Deletes finished rows (delivered or failed) created before `before`; answers how many. */
  async prune(before: string): Promise<number> {
    const r = await this.db.deleteFrom('notification_outbox').where('state', '!=', 'pending').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Rows still to deliver. */
  async depth(): Promise<number> {
    const r = await this.db.selectFrom('notification_outbox').select((eb) => eb.fn.countAll<string | number>().as('n')).where('state', '=', 'pending').executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  private async mine(id: number, owner: string, set: Partial<NotificationOutboxRow>): Promise<void> {
    await this.db
      .updateTable('notification_outbox')
      .set({ ...set, lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
