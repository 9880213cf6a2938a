import type { Kysely } from 'kysely';
import type { Database, ScriptRunRow } from '../../db/types.js';
import type { RunStatus } from '../../core/column-values.js';

export interface RunFilter {
  status?: RunStatus;
  /** ISO UTC bounds on `started_at`, both inclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** Script runs and their numbered live messages (tables `script_runs`, `script_run_events`). */
export class ScriptRunsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new `running` run, with the lease of the process that runs it. */
  async create(row: Omit<ScriptRunRow, 'id' | 'succeeded' | 'failed' | 'finished_at' | 'duration_ms'> & { lease_owner: string; lease_expires_at: string }): Promise<void> {
    await this.db.insertInto('script_runs').values(row).execute();
  }

  async saveResults(runId: string, results: string, succeeded: number, failed: number): Promise<void> {
    await this.db.updateTable('script_runs').set({ results, succeeded, failed }).where('run_id', '=', runId).execute();
  }

  /** The run's outcome; its lease is dropped with it (an ended run is nobody's work). */
  async finish(runId: string, fields: Pick<ScriptRunRow, 'status' | 'results' | 'succeeded' | 'failed' | 'finished_at' | 'duration_ms'>): Promise<void> {
    await this.db.updateTable('script_runs').set({ ...fields, lease_owner: null, lease_expires_at: null }).where('run_id', '=', runId).execute();
  }

  /** Extends the lease of every run `owner` is running (one statement, however many). */
  async renewLeases(owner: string, until: string): Promise<void> {
    await this.db.updateTable('script_runs').set({ lease_expires_at: until }).where('lease_owner', '=', owner).where('status', '=', 'running').execute();
  }

  /** Running runs whose owner stopped renewing (or that never had an owner: rows older than leases). */
  async expiredRunning(now: string): Promise<ScriptRunRow[]> {
    return this.db
      .selectFrom('script_runs')
      .selectAll()
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .execute();
  }

  /**
   * Closes a run found expired, only if it is still running and still expired (its owner did not
   * renew meanwhile, no other process closed it first): false when nothing was written.
   */
  async closeExpired(runId: string, now: string, fields: Pick<ScriptRunRow, 'status' | 'results' | 'succeeded' | 'failed' | 'finished_at'>): Promise<boolean> {
    const r = await this.db
      .updateTable('script_runs')
      .set({ ...fields, lease_owner: null, lease_expires_at: null })
      .where('run_id', '=', runId)
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async get(runId: string): Promise<ScriptRunRow | undefined> {
    return this.db.selectFrom('script_runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
  }

  /** Newest first, without the per-server results (a list does not show them). */
  async list(f: RunFilter): Promise<{ rows: Omit<ScriptRunRow, 'results' | 'lease_owner' | 'lease_expires_at'>[]; total: number }> {
    let q = this.db.selectFrom('script_runs');
    if (f.status) q = q.where('status', '=', f.status);
    if (f.from) q = q.where('started_at', '>=', f.from);
    if (f.to) q = q.where('started_at', '<=', f.to);
    const [rows, count] = await Promise.all([
      q
        .select(['id', 'run_id', 'label', 'script_id', 'schedule_id', 'operator', 'server_ids', 'status', 'total', 'succeeded', 'failed', 'started_at', 'finished_at', 'duration_ms'])
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  async insertEvent(runId: string, seq: number, payload: string, createdAt: string): Promise<void> {
    await this.db.insertInto('script_run_events').values({ run_id: runId, seq, payload, created_at: createdAt }).execute();
  }

  async eventsSince(runId: string, after: number, limit: number): Promise<Array<{ seq: number; payload: string }>> {
    return this.db
      .selectFrom('script_run_events')
      .select(['seq', 'payload'])
      .where('run_id', '=', runId)
      .where('seq', '>', after)
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute();
  }

  /** Drops run messages older than `before` (the run rows, with each server's output tails, stay). */
  async deleteEventsOlderThan(before: string): Promise<number> {
    const r = await this.db.deleteFrom('script_run_events').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
