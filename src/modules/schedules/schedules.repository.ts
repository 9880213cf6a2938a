import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ScheduleRow, SchedulesTable } from '../../db/types.js';

export const DEFAULT_EXEC_TIMEOUT = 60;

/** `server_ids` is JSON text; anything unreadable counts as no servers. */
export function parseServerIds(raw: string): number[] {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
}

export type NewSchedule = Omit<Insertable<SchedulesTable>, 'id'>;
export type SchedulePatch = Updateable<SchedulesTable>;

export class SchedulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<ScheduleRow[]> {
    return this.db.selectFrom('schedules').selectAll().orderBy('id', 'asc').execute();
  }

  async listEnabled(): Promise<ScheduleRow[]> {
    return this.db.selectFrom('schedules').selectAll().where('enabled', '=', 1).orderBy('id', 'asc').execute();
  }

  async get(id: number): Promise<ScheduleRow | undefined> {
    return this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async create(row: NewSchedule): Promise<ScheduleRow> {
    return this.db.insertInto('schedules').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: SchedulePatch): Promise<ScheduleRow | undefined> {
    if (Object.keys(patch).length === 0) return this.get(id);
    return this.db.updateTable('schedules').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('schedules').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Claims the run owed for `slot`: exactly one caller (of any worker) sees `true`. The row is
   * stamped with `now` (>= slot), so every later claim for the same slot matches no row. A once
   * schedule is disabled in the same statement, so it can never run twice. `token` (random, one
   * per claim) is stored with it so a claim whose answer was lost can be settled by `claimedWith`.
   */
  async claim(id: number, slot: string, now: string, disable: boolean, token: string): Promise<boolean> {
    const r = await this.db
      .updateTable('schedules')
      .set(disable ? { last_run_at: now, enabled: 0, claim_token: token } : { last_run_at: now, claim_token: token })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<', slot)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** True when the schedule's latest claim is the one made with `token`. */
  async claimedWith(id: number, token: string): Promise<boolean> {
    const row = await this.db.selectFrom('schedules').select('claim_token').where('id', '=', id).executeTakeFirst();
    return row?.claim_token === token;
  }
}
