/**
 * Fires due schedules. Any number of workers may tick at once: a run happens only for the worker
 * whose claim of the slot updated the row (see SchedulesRepository.claim), so each due run
 * happens exactly once across the fleet of workers.
 *
 * The database may go away at any point (a PostgreSQL restart): a claim whose answer is lost is
 * settled by reading its token back once the database answers (else the slot would be taken by
 * nobody and silently skipped), and a run's start and end are written once it answers (else a
 * run would stay `running` forever). The wall clock is `now` (injectable: it may jump).
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../core/actor.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { every } from '../../core/periodic.js';
import type { ScheduleRow } from '../../db/types.js';
import type { PushService } from '../push/index.js';
import type { ScriptsService } from '../scripts/index.js';
import { isTransientDbError, untilDatabaseAnswers } from '../../db/transient.js';
import { leaseUntil } from '../../platform/leases.js';
import { dueSlot } from './schedule-timing.js';
import type { ScheduleRunPatch, ScheduleRunsRepository } from './schedule-runs.repository.js';
import { DEFAULT_EXEC_TIMEOUT, parseServerIds, type SchedulesRepository } from './schedules.repository.js';

export const SCHEDULER_ACTOR: Actor = { adminId: null, username: 'scheduler', ip: null };
/** Why a run whose process died is failed (its push batch or script run is recovered on its own). */
export const RUN_INTERRUPTED_ERROR = 'Interrupted: the service stopped while this run was going; it is not run again (see its push batch or script run for what was done)';

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
  /** The wall clock (ms since the epoch); Date.now unless a test drives it. */
  now?: () => number;
  /** This process's lease identity: a running run's row names it until the run ends. */
  owner: string;
}

/** How long a claim whose answer was lost waits for the database to say whose the slot is. */
const CLAIM_SETTLE_MS = 60_000;
/** How long a run waits for the database to record its start before it goes ahead unrecorded. */
const RECORD_START_WAIT_MS = 60_000;
/** How long a finished run waits for the database to record its end (it must not stay `running`). */
const RECORD_END_WAIT_MS = 30 * 60_000;

export class Scheduler {
  /** Schedules whose previous run is still going in this process: not claimed again meanwhile. */
  private readonly inflight = new Set<number>();
  private readonly running = new Set<Promise<unknown>>();
  /** Aborted on stop: a run's record stops waiting for the database so shutdown is not held up. */
  private readonly stopping = new AbortController();
  /**
   * The wall time of the loop's previous completed pass. A slot after it was passed while the
   * loop was watching (the wall clock jumped forward over it, or the database was away), so it is
   * owed however late; only slots that passed before it (service down) are subject to the grace.
   */
  private lastPass: Date | null = null;
  private readonly clock: () => number;

  constructor(private readonly d: SchedulerDeps) {
    this.clock = d.now ?? Date.now;
  }

  /** Claims and runs everything due at `now`, resolving when those runs have finished (tests use this). */
  async runDue(now: Date = new Date(this.clock())): Promise<ScheduleRunOutcome[]> {
    const claimed = await this.claimDue(now, null);
    return Promise.all(claimed.map(({ row, slot }) => this.fire(row, slot)));
  }

  /** The loop: a tick every `intervalMs`; runs go on in the background, ticks never overlap. */
  start(intervalMs: number): () => Promise<void> {
    const loop = every(
      intervalMs,
      async () => {
        const now = new Date(this.clock());
        for (const { row, slot } of await this.claimDue(now, this.lastPass)) {
          const p = this.fire(row, slot).finally(() => this.running.delete(p));
          this.running.add(p);
        }
        this.lastPass = now;
      },
      (err) => this.d.log.warn({ err }, 'scheduler tick failed'),
    );
    return async () => {
      this.stopping.abort();
      await loop.stop();
      await Promise.allSettled([...this.running]);
    };
  }

  private async claimDue(now: Date, lastPass: Date | null): Promise<Array<{ row: ScheduleRow; slot: Date }>> {
    const claimed: Array<{ row: ScheduleRow; slot: Date }> = [];
    for (const row of await this.d.repo.listEnabled()) {
      if (this.inflight.has(row.id)) continue;
      const slot = dueSlot(row, now, lastPass);
      if (!slot) continue;
      if (await this.claim(row, slot, now)) {
        this.inflight.add(row.id);
        claimed.push({ row, slot });
      }
    }
    return claimed;
  }

  /**
   * One claim. When the database goes away mid-statement the UPDATE may have been applied with
   * only its answer lost; the token it wrote says, once the database answers, whether the slot
   * is ours (then we run it) or someone else's (then we do not).
   */
  private async claim(row: ScheduleRow, slot: Date, now: Date): Promise<boolean> {
    const token = randomUUID();
    try {
      return await this.d.repo.claim(row.id, slot.toISOString(), now.toISOString(), row.run_mode !== 'cron', token);
    } catch (err) {
      if (!isTransientDbError(err)) throw err;
      return untilDatabaseAnswers(() => this.d.repo.claimedWith(row.id, token), {
        deadlineMs: CLAIM_SETTLE_MS, log: this.d.log, what: `claim of schedule ${row.id}`, signal: this.stopping.signal,
      });
    }
  }

  /** Keeps the leases of the runs this process is running. */
  renewLeases(): Promise<void> {
    return this.d.runs.renewLeases(this.d.owner, leaseUntil());
  }

  /** Fails runs whose process stopped renewing them (a crash): they would stay `running` forever. */
  async recoverExpired(now = Date.now()): Promise<number[]> {
    const ids = await this.d.runs.failExpired(new Date(now).toISOString(), RUN_INTERRUPTED_ERROR);
    if (ids.length) this.d.log.warn({ scheduleRuns: ids }, 'schedule runs whose process stopped marked as interrupted');
    return ids;
  }

  private async fire(row: ScheduleRow, slot: Date): Promise<ScheduleRunOutcome> {
    const base = { schedule_id: row.id, schedule_type: row.schedule_type, slot: slot.toISOString() };
    // A push's batch id is chosen here and recorded with the run's start, so a run interrupted by
    // a crash still names the batch (whose recovery made retry jobs for what it did not finish).
    const batchId = row.schedule_type === 'script' ? null : randomUUID();
    const runRow = await this.recordStart(row, base.slot, batchId);
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
          batch_id: batchId ?? undefined,
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
  private async recordStart(row: ScheduleRow, slot: string, batchId: string | null): Promise<number | null> {
    try {
      const started = {
        schedule_id: row.id, schedule_type: row.schedule_type, slot, started_at: this.isoNow(), status: 'running' as const, batch_id: batchId,
        lease_owner: this.d.owner, lease_expires_at: leaseUntil(),
      };
      return await untilDatabaseAnswers(() => this.d.runs.start(started), {
        deadlineMs: RECORD_START_WAIT_MS, log: this.d.log, what: `start of a run of schedule ${row.id}`, signal: this.stopping.signal,
      });
    } catch (err) {
      this.d.log.warn({ scheduleId: row.id, err }, 'schedule run not recorded');
      return null;
    }
  }

  private async recordEnd(id: number | null, patch: ScheduleRunPatch): Promise<void> {
    if (id === null) return;
    const end = { ...patch, finished_at: this.isoNow() };
    await untilDatabaseAnswers(() => this.d.runs.finish(id, end), {
      deadlineMs: RECORD_END_WAIT_MS, log: this.d.log, what: `end of schedule run ${id}`, signal: this.stopping.signal,
    }).catch((err) => this.d.log.warn({ runId: id, err }, 'schedule run end not recorded'));
  }

  private isoNow(): string {
    return new Date(this.clock()).toISOString();
  }
}
