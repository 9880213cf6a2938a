import type { Insertable, Kysely } from 'kysely';
import type { Database, RetryJobRow, RetryJobsTable } from '../../db/types.js';

export type RetryStatus = 'pending' | 'running' | 'succeeded' | 'failed';
export type NewRetryJob = Omit<Insertable<RetryJobsTable>, 'id'>;

export class RetriesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(job: NewRetryJob): Promise<number> {
    const row = await this.db.insertInto('retry_jobs').values(job).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async list(limit: number): Promise<RetryJobRow[]> {
    return this.db.selectFrom('retry_jobs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async get(id: number): Promise<RetryJobRow | undefined> {
    return this.db.selectFrom('retry_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async resetToPending(id: number, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'pending', retry_count: 0, next_retry_at: null, last_error: null, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('retry_jobs').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Pending jobs whose back-off has passed (or that were reset by hand), oldest due first. */
  async due(now: string, limit: number): Promise<RetryJobRow[]> {
    return this.db
      .selectFrom('retry_jobs')
      .selectAll()
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('next_retry_at', 'is', null), eb('next_retry_at', '<=', now)]))
      .orderBy('next_retry_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /** pending → running; only the caller that flips it runs the job. */
  async claim(id: number, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'running', updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async finish(
    id: number,
    patch: { status: RetryStatus; retry_count?: number; next_retry_at: string | null; last_error: string | null },
    now: string,
  ): Promise<void> {
    // Only a job still marked running is ours: a reset or delete meanwhile wins.
    await this.db
      .updateTable('retry_jobs')
      .set({ ...patch, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  /** A restart interrupted these runs; they go back to the queue. */
  async requeueRunning(now: string): Promise<number> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'pending', updated_at: now })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}
