import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, PushBatchRow, PushResultRow } from '../../db/types.js';
import type { BatchStatus, ResultStatus } from './push.schemas.js';

export type NewBatch = Omit<PushBatchRow, 'finished_at' | 'lease_owner' | 'lease_expires_at' | 'cancel_requested_at'> & {
  lease_owner: string;
  lease_expires_at: string;
};

export interface NewResult {
  server_id: number;
  server_name: string | null;
  status: ResultStatus;
  error?: string | null;
}

export interface ResultUpdate {
  status: ResultStatus;
  files_transferred?: number;
  bytes_transferred?: number;
  duration_ms?: number;
  error?: string | null;
  error_code?: string | null;
  retry_job_id?: number | null;
}

export interface BatchCounts {
  succeeded: number;
  failed: number;
  skipped: number;
}

/** Push history: one batch row and one result row per server. */
export class PushRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the batch and its results at once; false when the batch id is already taken. */
  async createBatch(batch: NewBatch, results: NewResult[]): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('push_batches').values({ ...batch, finished_at: null }).execute();
        // Chunked: SQLite caps bound parameters per statement.
        for (let i = 0; i < results.length; i += 100) {
          await trx
            .insertInto('push_results')
            .values(
              results.slice(i, i + 100).map((r) => ({
                batch_id: batch.batch_id,
                server_id: r.server_id,
                server_name: r.server_name,
                status: r.status,
                files_transferred: 0,
                bytes_transferred: 0,
                duration_ms: 0,
                error: r.error ?? null,
                retry_job_id: null,
              })),
            )
            .execute();
        }
      });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Records a cancel of a running batch; false when no running batch has that id. */
  async requestCancel(batchId: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('push_batches')
      .set({ cancel_requested_at: at })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async cancelRequested(batchId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('push_batches')
      .select('cancel_requested_at')
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return row?.cancel_requested_at != null;
  }

  async batchExists(batchId: string): Promise<boolean> {
    const row = await this.db.selectFrom('push_batches').select('batch_id').where('batch_id', '=', batchId).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Writes results of a running batch, but only while `owner` holds its lease: a process whose
   * lease moved (recovery took the batch over after an outage longer than the lease) must not
   * overwrite what the new owner wrote. False when nothing was written for that reason.
   */
  async updateResult(batchId: string, serverIds: number[], u: ResultUpdate, owner: string): Promise<boolean> {
    if (serverIds.length === 0) return true;
    const r = await this.db
      .updateTable('push_results')
      .set(u)
      .where('batch_id', '=', batchId)
      .where('server_id', 'in', serverIds)
      .where((eb) => eb.exists(this.ownedBatch(batchId, owner)))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Whether `owner` holds the lease of the running batch. */
  async ownsBatch(batchId: string, owner: string): Promise<boolean> {
    return (await this.ownedBatch(batchId, owner).executeTakeFirst()) !== undefined;
  }

  private ownedBatch(batchId: string, owner: string) {
    return this.db
      .selectFrom('push_batches')
      .select('batch_id')
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner);
  }

  /**
   * Closes a running batch and drops its lease, when `owner` holds it; a batch already closed
   * (recovered) or taken over by another process stays as it is. False when nothing was closed.
   */
  async finishBatch(batchId: string, status: BatchStatus, counts: BatchCounts, finishedAt: string, owner: string): Promise<boolean> {
    const r = await this.db
      .updateTable('push_batches')
      .set({ status, ...counts, finished_at: finishedAt, lease_owner: null, lease_expires_at: null })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async getBatch(batchId: string): Promise<PushBatchRow | undefined> {
    return this.db.selectFrom('push_batches').selectAll().where('batch_id', '=', batchId).executeTakeFirst();
  }

  async listBatches(limit: number): Promise<PushBatchRow[]> {
    return this.db
      .selectFrom('push_batches')
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('batch_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Newest first, optionally of one status, with the total for paging. */
  async pageBatches(status: BatchStatus | undefined, limit: number, offset: number): Promise<{ rows: PushBatchRow[]; total: number }> {
    let q = this.db.selectFrom('push_batches');
    if (status) q = q.where('status', '=', status);
    const rows = await q.selectAll().orderBy('started_at', 'desc').orderBy('batch_id', 'desc').limit(limit).offset(offset).execute();
    const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(count?.n ?? 0) };
  }

  async resultsOf(batchIds: string[]): Promise<PushResultRow[]> {
    if (batchIds.length === 0) return [];
    return this.db
      .selectFrom('push_results')
      .selectAll()
      .where('batch_id', 'in', batchIds)
      .orderBy('id', 'asc')
      .execute();
  }

  /** Counts by result status, straight from the rows (the source of truth after a crash). */
  async countResults(batchId: string): Promise<BatchCounts & { pending: number }> {
    const rows = await this.db
      .selectFrom('push_results')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('batch_id', '=', batchId)
      .groupBy('status')
      .execute();
    const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
    return {
      succeeded: by.get('success') ?? 0,
      failed: by.get('failed') ?? 0,
      skipped: by.get('skipped') ?? 0,
      pending: (by.get('pending') ?? 0) + (by.get('running') ?? 0),
    };
  }

  /**
   * Extends the lease of every batch this process is running (one statement, however many);
   * answers the ids it still owns, so the caller learns of a lease that moved.
   */
  async renewLeases(owner: string, until: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('push_batches')
      .set({ lease_expires_at: until })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .returning('batch_id')
      .execute();
    return rows.map((r) => r.batch_id);
  }

  /** Running batches whose owner stopped renewing (or that never had an owner). */
  async expiredBatches(now: string): Promise<PushBatchRow[]> {
    return this.db
      .selectFrom('push_batches')
      .selectAll()
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .execute();
  }

  /**
   * Takes over an expired batch for recovery; false when its owner renewed meanwhile or another
   * process took it first, so exactly one process recovers each batch.
   */
  async takeOver(batchId: string, owner: string, now: string, until: string): Promise<boolean> {
    const r = await this.db
      .updateTable('push_batches')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Results of a batch that had not finished: `pending` (not started) or `running`. */
  async unfinishedResults(batchId: string): Promise<PushResultRow[]> {
    return this.db
      .selectFrom('push_results')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['pending', 'running'])
      .orderBy('id')
      .execute();
  }
}

/** completed: no failure; failed: nothing succeeded; partial: some of each; cancelled wins. */
export function batchStatus(c: BatchCounts, cancelled: boolean): BatchStatus {
  if (cancelled) return 'cancelled';
  if (c.failed === 0) return 'completed';
  return c.succeeded === 0 ? 'failed' : 'partial';
}
