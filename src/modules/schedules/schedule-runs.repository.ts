import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ScheduleRunRow, ScheduleRunsTable } from '../../db/types.js';

export type NewScheduleRun = Omit<Insertable<ScheduleRunsTable>, 'id' | 'lease_owner' | 'lease_expires_at'> & { lease_owner: string; lease_expires_at: string };
export type ScheduleRunPatch = Omit<Updateable<ScheduleRunsTable>, 'id' | 'schedule_id' | 'lease_owner' | 'lease_expires_at'>;

/** The record of each firing of a schedule (the table belongs to the schedules module). */
export class ScheduleRunsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async start(row: NewScheduleRun): Promise<number> {
    const r = await this.db.insertInto('schedule_runs').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** The run's outcome; its lease is dropped with it (an ended run is nobody's work). */
  async finish(id: number, patch: ScheduleRunPatch): Promise<void> {
    await this.db.updateTable('schedule_runs').set({ ...patch, lease_owner: null, lease_expires_at: null }).where('id', '=', id).execute();
  }

  /** Extends the lease of every run `owner` is running (one statement, however many). */
  async renewLeases(owner: string, until: string): Promise<void> {
    await this.db.updateTable('schedule_runs').set({ lease_expires_at: until }).where('lease_owner', '=', owner).where('status', '=', 'running').execute();
  }

  /**
   * Fails every running run whose lease expired before `now` (or that never had one), in one
   * statement, so two processes recovering at once close each run once. Answers their ids.
   */
  async failExpired(now: string, error: string): Promise<number[]> {
    const rows = await this.db
      .updateTable('schedule_runs')
      .set({ status: 'failed', error, finished_at: now, lease_owner: null, lease_expires_at: null })
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** A schedule's runs, newest first. */
  async page(scheduleId: number, limit: number, offset: number): Promise<{ items: ScheduleRunRow[]; total: number }> {
    const [items, count] = await Promise.all([
      this.db.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', scheduleId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      this.db.selectFrom('schedule_runs').select((eb) => eb.fn.countAll<string | number>().as('n')).where('schedule_id', '=', scheduleId).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }

  /** The newest run of each schedule that has one (one query for the whole list). */
  async latestBySchedule(): Promise<Map<number, ScheduleRunRow>> {
    const rows = await this.db
      .selectFrom('schedule_runs')
      .selectAll()
      .where('id', 'in', (eb) => eb.selectFrom('schedule_runs').select((e) => e.fn.max('id').as('id')).groupBy('schedule_id'))
      .execute();
    return new Map(rows.map((r) => [r.schedule_id, r]));
  }

  async latestOf(scheduleId: number): Promise<ScheduleRunRow | undefined> {
    return this.db.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', scheduleId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  async deleteOf(scheduleId: number): Promise<void> {
    await this.db.deleteFrom('schedule_runs').where('schedule_id', '=', scheduleId).execute();
  }
}
