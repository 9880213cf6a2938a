/**
 * Push and script schedules: CRUD with the whole schedule re-validated
 * after every change, and the scheduler that fires due ones (see scheduler.ts).
 */
import type { Actor } from '../../core/actor.js';
import { BadRequestError, NotFoundError, UnprocessableError } from '../../core/errors.js';
import { refuseFullPushInto } from '../../core/protected-paths.js';
import { nowIso, parseDateTimeShanghai } from '../../core/time.js';
import type { ScheduleRow, ScheduleRunRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { ScriptsService } from '../scripts/index.js';
import type { StagingPaths } from '../staging/index.js';
import { nextRunOf, parseCron } from './schedule-timing.js';
import { Scheduler, type ScheduleRunOutcome, type SchedulerDeps } from './scheduler.js';
import { DEFAULT_EXEC_TIMEOUT, parseServerIds, type NewSchedule, type SchedulesRepository } from './schedules.repository.js';
import type {
  CreateScheduleBody, ScheduleRunsPage, ScheduleRunsQuery, ScheduleRunView, ScheduleView, UpdateScheduleBody,
} from './schedules.schemas.js';

export interface SchedulesDeps extends SchedulerDeps {
  repo: SchedulesRepository;
  scripts: Pick<ScriptsService, 'get' | 'runOn'>;
  staging: StagingPaths;
  audit: AuditService;
}

/** The stored columns a schedule is made of (everything but id, last_run_at and created_at). */
type Draft = Omit<NewSchedule, 'last_run_at' | 'created_at'>;

export function toRunView(r: ScheduleRunRow): ScheduleRunView {
  return {
    id: r.id,
    schedule_id: r.schedule_id,
    // The columns only ever hold what the scheduler wrote.
    schedule_type: r.schedule_type,
    slot: r.slot,
    started_at: r.started_at,
    finished_at: r.finished_at,
    status: r.status,
    batch_id: r.batch_id,
    run_id: r.run_id,
    total: Number(r.total),
    succeeded: Number(r.succeeded),
    failed: Number(r.failed),
    error: r.error,
  };
}

export function toScheduleView(r: ScheduleRow, now = new Date(), last?: ScheduleRunRow | null): ScheduleView {
  return {
    id: r.id,
    name: r.name,
    source_path: r.source_path,
    target_path: r.target_path,
    server_ids: parseServerIds(r.server_ids),
    // The columns only ever hold what the schemas admitted.
    run_mode: r.run_mode,
    cron_expr: r.cron_expr,
    fire_at: r.fire_at,
    sync_mode: r.sync_mode,
    enabled: Boolean(r.enabled),
    schedule_type: r.schedule_type,
    script_id: r.script_id,
    script_content: r.script_content,
    exec_timeout: Number(r.exec_timeout),
    long_task: Boolean(r.long_task),
    last_run_at: r.last_run_at,
    next_run: nextRunOf(r, now),
    created_at: r.created_at,
    last_result: last ? toRunView(last) : null,
  };
}

const missing = (field: string, message: string) =>
  new UnprocessableError(`Validation failed: body.${field} ${message}`, [{ path: `body.${field}`, message }]);
const blankToNull = (s: string | null | undefined) => (s === undefined || s === null || s.trim() === '' ? null : s.trim());

export class SchedulesService {
  private readonly scheduler: Scheduler;

  constructor(private readonly d: SchedulesDeps) {
    this.scheduler = new Scheduler(d);
  }

  /** Fires every schedule due at `now` and waits for those runs (tests drive time through this). */
  runDue(now: Date = new Date()): Promise<ScheduleRunOutcome[]> {
    return this.scheduler.runDue(now);
  }

  renewLeases(): Promise<void> {
    return this.scheduler.renewLeases();
  }

  /** Fails runs whose process died (lease expired before `now`); answers their ids. */
  recoverExpired(now = Date.now()): Promise<number[]> {
    return this.scheduler.recoverExpired(now);
  }

  /** The background loop (only when background jobs are on); returns its stop function. */
  startLoop(intervalMs = 2000): () => Promise<void> {
    return this.scheduler.start(intervalMs);
  }

  async list(): Promise<ScheduleView[]> {
    const now = new Date();
    const [rows, latest] = await Promise.all([this.d.repo.list(), this.d.runs.latestBySchedule()]);
    return rows.map((r) => toScheduleView(r, now, latest.get(r.id)));
  }

  /** A schedule's firings, newest first, a page at a time. */
  async runs(id: number, q: ScheduleRunsQuery): Promise<ScheduleRunsPage> {
    if (!(await this.d.repo.get(id))) throw new NotFoundError('Schedule not found', 'schedule_not_found');
    const page = q.page ?? 1;
    const perPage = q.per_page ?? 20;
    const { items, total } = await this.d.runs.page(id, perPage, (page - 1) * perPage);
    return { items: items.map(toRunView), total, page, per_page: perPage };
  }

  async create(actor: Actor, input: CreateScheduleBody): Promise<ScheduleView> {
    const empty: Draft = {
      name: '', schedule_type: 'push', source_path: null, target_path: null, server_ids: '[]', run_mode: 'once',
      cron_expr: null, fire_at: null, sync_mode: 'incremental', enabled: 1, script_id: null, script_content: null,
      exec_timeout: DEFAULT_EXEC_TIMEOUT, long_task: 0,
    };
    const draft = await this.validated(this.apply(empty, input));
    const row = await this.d.repo.create({ ...draft, last_run_at: null, created_at: nowIso() });
    await this.d.audit.record(actor, 'create_schedule', { type: 'schedule', id: row.id, detail: `name=${row.name} type=${row.schedule_type}` });
    return toScheduleView(row);
  }

  async update(actor: Actor, id: number, input: UpdateScheduleBody): Promise<ScheduleView> {
    const current = await this.d.repo.get(id);
    if (!current) throw new NotFoundError('Schedule not found', 'schedule_not_found');
    const { id: _id, last_run_at: _last, created_at: _created, ...stored } = current;
    const draft = await this.validated(this.apply(stored, input));
    const patch = Object.fromEntries(Object.entries(draft).filter(([k, v]) => stored[k as keyof Draft] !== v));
    const row = await this.d.repo.update(id, patch);
    if (!row) throw new NotFoundError('Schedule not found', 'schedule_not_found');
    const last = await this.d.runs.latestOf(id);
    await this.d.audit.record(actor, 'update_schedule', { type: 'schedule', id, detail: `fields=${Object.keys(patch).join(',')}` });
    return toScheduleView(row, new Date(), last);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.d.repo.get(id);
    if (!row || !(await this.d.repo.delete(id))) throw new NotFoundError('Schedule not found', 'schedule_not_found');
    await this.d.runs.deleteOf(id);
    await this.d.audit.record(actor, 'delete_schedule', { type: 'schedule', id, detail: `name=${row.name}` });
  }

  /** Only the supplied fields change; null resets a field to its fallback. */
  private apply(base: Draft, input: UpdateScheduleBody): Draft {
    const d: Draft = { ...base };
    if (input.name !== undefined) d.name = input.name.trim();
    if (input.schedule_type !== undefined) d.schedule_type = input.schedule_type ?? 'push';
    if (input.source_path !== undefined) d.source_path = blankToNull(input.source_path);
    if (input.target_path !== undefined) d.target_path = blankToNull(input.target_path);
    if (input.server_ids !== undefined) d.server_ids = JSON.stringify([...new Set(input.server_ids ?? [])]);
    if (input.run_mode !== undefined) d.run_mode = input.run_mode ?? 'once';
    if (input.cron_expr !== undefined) d.cron_expr = blankToNull(input.cron_expr);
    if (input.fire_at !== undefined) {
      const v = blankToNull(input.fire_at);
      d.fire_at = v === null ? null : parseDateTimeShanghai(v, 'fire_at').toISOString();
    }
    if (input.sync_mode !== undefined) d.sync_mode = input.sync_mode ?? 'incremental';
    if (input.enabled !== undefined) d.enabled = input.enabled === false ? 0 : 1;
    if (input.script_id !== undefined) d.script_id = input.script_id;
    if (input.script_content !== undefined) d.script_content = input.script_content === '' ? null : input.script_content;
    if (input.exec_timeout !== undefined) d.exec_timeout = input.exec_timeout ?? DEFAULT_EXEC_TIMEOUT;
    if (input.long_task !== undefined) d.long_task = input.long_task ? 1 : 0;
    return d;
  }

  /** The rules of a schedule, checked on the whole (merged) schedule so a partial update cannot break one. */
  private async validated(d: Draft): Promise<Draft> {
    if (!d.name) throw missing('name', 'must not be blank');
    if (d.cron_expr) parseCron(d.cron_expr);
    if (d.run_mode === 'cron' && !d.cron_expr) throw missing('cron_expr', 'is required when run_mode is cron');
    if (d.run_mode !== 'cron' && !d.fire_at && !d.cron_expr) throw missing('fire_at', 'is required when run_mode is once (or give cron_expr)');
    if (d.schedule_type === 'push') {
      if (!d.source_path) throw missing('source_path', 'is required for a push schedule');
      if (parseServerIds(d.server_ids ?? '[]').length === 0) throw missing('server_ids', 'must list at least one server for a push schedule');
      // The directory may be staged later, but it can never be outside staging.
      await this.d.staging.resolveInsideStaging(d.source_path, 'Source path');
      // A server's own target may change later: the push itself checks again when it fires.
      if (d.target_path) refuseFullPushInto(d.sync_mode, d.target_path);
    } else {
      const content = d.script_content?.trim();
      if (d.script_id == null && !content) throw missing('script_id', 'or script_content is required for a script schedule');
      if (d.script_id != null) {
        await this.d.scripts.get(d.script_id).catch((err) => {
          throw err instanceof NotFoundError ? new BadRequestError(`Script ${d.script_id} does not exist`, 'script_not_found') : err;
        });
      }
    }
    return d;
  }
}
