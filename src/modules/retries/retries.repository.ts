import type { Insertable, Kysely } from 'kysely';
import type { Database, RetryJobRow, RetryJobsTable } from '../../db/types.js';
import type { RetryStatus } from './retries.schemas.js';

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

  async countByStatus(): Promise<Array<{ status: string; n: number }>> {
    const rows = await this.db
      .selectFrom('retry_jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  }

  async listByStatus(status: RetryStatus, limit: number): Promise<RetryJobRow[]> {
    return this.db
      .selectFrom('retry_jobs')
      .selectAll()
      .where('status', '=', status)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Jobs waiting or out of attempts for this server and source become `succeeded`. */
  async resolve(serverId: number, source: string, now: string): Promise<number> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'succeeded', next_retry_at: null, updated_at: now })
      .where('server_id', '=', serverId)
      .where('source_path', '=', source)
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async get(id: number): Promise<RetryJobRow | undefined> {
    return this.db.selectFrom('retry_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async resetToPending(id: number, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'pending', retry_count: 0, next_retry_at: null, last_error: null, lease_owner: null, lease_expires_at: null, updated_at: now })
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

  /** pending → running under this process's lease; only the caller that flips it runs the job. */
  async claim(id: number, owner: string, until: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'running', lease_owner: owner, lease_expires_at: until, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async finish(
    id: number,
    owner: string,
    patch: { status: RetryStatus; retry_count?: number; next_retry_at: string | null; last_error: string | null },
    now: string,
  ): Promise<void> {
    // Only a job still running under our lease is ours: a reset, delete or recovery meanwhile wins.
    await this.db
      .updateTable('retry_jobs')
      .set({ ...patch, lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Extends the lease of every job this process is running. */
  async renewLeases(owner: string, until: string): Promise<void> {
    await this.db
      .updateTable('retry_jobs')
      .set({ lease_expires_at: until })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .execute();
  }

  /** Running jobs whose process stopped renewing their lease go back to the queue, as they were. */
  async requeueExpired(now: string): Promise<number> {
    const r = await this.db
      .updateTable('retry_jobs')
      .set({ status: 'pending', lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}
