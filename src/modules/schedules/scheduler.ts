/**
 * Fires due schedules. Any number of workers may tick at once: a run happens only for the worker
 * whose claim of the slot updated the row (see SchedulesRepository.claim), so each due run
 * happens exactly once across the fleet of workers.
 */
import type { Actor } from '../../core/actor.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { every } from '../../core/periodic.js';
import type { ScheduleRow } from '../../db/types.js';
import type { PushService } from '../push/index.js';
import type { ScriptsService } from '../scripts/index.js';
import { nowIso } from '../../core/time.js';
import { dueSlot } from './schedule-timing.js';
import type { ScheduleRunPatch, ScheduleRunsRepository } from './schedule-runs.repository.js';
import { DEFAULT_EXEC_TIMEOUT, parseServerIds, type SchedulesRepository } from './schedules.repository.js';

export const SCHEDULER_ACTOR: Actor = { adminId: null, username: 'scheduler', ip: null };

export interface ScheduleRunOutcome {
  schedule_id: number;
  schedule_type: string;
  slot: string;
  ok: boolean;
  batch_id?: string;
  batch_status?: string;
  run_id?: string;
  error?: string;
}

export interface SchedulerDeps {
  repo: SchedulesRepository;
  runs: ScheduleRunsRepository;
  push: Pick<PushService, 'start'>;
  scripts: Pick<ScriptsService, 'get' | 'runOn'>;
  log: Logger;
}

export class Scheduler {
  /** Schedules whose previous run is still going in this process: not claimed again meanwhile. */
  private readonly inflight = new Set<number>();
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly d: SchedulerDeps) {}

  /** Claims and runs everything due at `now`, resolving when those runs have finished (tests use this). */
  async runDue(now: Date = new Date()): Promise<ScheduleRunOutcome[]> {
    const claimed = await this.claimDue(now);
    return Promise.all(claimed.map(({ row, slot }) => this.fire(row, slot)));
  }

  /** The loop: a tick every `intervalMs`; runs go on in the background, ticks never overlap. */
  start(intervalMs: number): () => Promise<void> {
    const loop = every(
      intervalMs,
      async () => {
        for (const { row, slot } of await this.claimDue(new Date())) {
          const p = this.fire(row, slot).finally(() => this.running.delete(p));
          this.running.add(p);
        }
      },
      (err) => this.d.log.warn({ err }, 'scheduler tick failed'),
    );
    return async () => {
      await loop.stop();
      await Promise.allSettled([...this.running]);
    };
  }

  private async claimDue(now: Date): Promise<Array<{ row: ScheduleRow; slot: Date }>> {
    const claimed: Array<{ row: ScheduleRow; slot: Date }> = [];
    for (const row of await this.d.repo.listEnabled()) {
      if (this.inflight.has(row.id)) continue;
      const slot = dueSlot(row, now);
      if (!slot) continue;
      if (await this.d.repo.claim(row.id, slot.toISOString(), now.toISOString(), row.run_mode !== 'cron')) {
        this.inflight.add(row.id);
        claimed.push({ row, slot });
      }
    }
    return claimed;
  }

  private async fire(row: ScheduleRow, slot: Date): Promise<ScheduleRunOutcome> {
    const base = { schedule_id: row.id, schedule_type: row.schedule_type, slot: slot.toISOString() };
    const runRow = await this.recordStart(row, base.slot);
    let outcome: ScheduleRunOutcome;
    let record: ScheduleRunPatch;
    try {
      if (row.schedule_type === 'script') {
        const content = row.script_id !== null ? (await this.d.scripts.get(row.script_id)).content : (row.script_content ?? '');
        const run = await this.d.scripts.runOn(SCHEDULER_ACTOR, {
          serverIds: parseServerIds(row.server_ids),
          content,
          timeoutMs: row.long_task ? null : (Number(row.exec_timeout) || DEFAULT_EXEC_TIMEOUT) * 1000,
          label: `schedule "${row.name}"`,
          scriptId: row.script_id,
          scheduleId: row.id,
        });
        const succeeded = run.results.filter((r) => r.exit_code === 0 && !r.error).length;
        const total = run.results.length;
        const status = succeeded === total ? 'completed' : succeeded === 0 ? 'failed' : 'partial';
        outcome = { ...base, ok: true, run_id: run.run_id };
        record = { status, run_id: run.run_id, total, succeeded, failed: total - succeeded };
      } else {
        const out = await this.d.push.start(SCHEDULER_ACTOR, {
          server_ids: parseServerIds(row.server_ids),
          source_path: row.source_path ?? '',
          target_path: row.target_path,
          sync_mode: row.sync_mode,
        });
        const batch = out.async ? null : out.batch;
        outcome = { ...base, ok: true, batch_id: batch?.batch_id, batch_status: batch?.status };
        record = batch
          ? { status: batch.status, batch_id: batch.batch_id, total: batch.total, succeeded: batch.succeeded, failed: batch.failed }
          : { status: 'completed', batch_id: out.async ? out.batch_id : null };
      }
    } catch (err) {
      const error = errorMessage(err);
      this.d.log.warn({ scheduleId: row.id, err: error }, 'scheduled run failed');
      outcome = { ...base, ok: false, error };
      record = { status: 'failed', error: error.slice(0, 2000) };
    } finally {
      this.inflight.delete(row.id);
    }
    await this.recordEnd(runRow, record);
    return outcome;
  }

  /** The history is a record, not a precondition: a failure to write it never stops the run. */
  private async recordStart(row: ScheduleRow, slot: string): Promise<number | null> {
    try {
      return await this.d.runs.start({ schedule_id: row.id, schedule_type: row.schedule_type, slot, started_at: nowIso(), status: 'running' });
    } catch (err) {
      this.d.log.warn({ scheduleId: row.id, err }, 'schedule run not recorded');
      return null;
    }
  }

  private async recordEnd(id: number | null, patch: ScheduleRunPatch): Promise<void> {
    if (id === null) return;
    await this.d.runs.finish(id, { ...patch, finished_at: nowIso() }).catch((err) => this.d.log.warn({ runId: id, err }, 'schedule run end not recorded'));
  }
}
