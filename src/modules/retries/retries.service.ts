/**
 * Retry jobs: a server that failed in a push gets one (at most 3 attempts); a background worker
 * re-runs due jobs with exponential back-off (60 s × 2^retry_count) until one succeeds or the
 * attempts are used up (`failed`). A running job carries its process's lease; a job whose lease
 * ran out goes back to `pending` without using up an attempt. A job whose target another batch or
 * job is writing waits for its next back-off step, also without using up an attempt.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import type { Actor } from '../../core/actor.js';
import { isClientSafe, NotFoundError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { every } from '../../core/periodic.js';
import { nowIso } from '../../core/time.js';
import type { RetryJobRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mapLimit } from '../../core/map-limit.js';
import { fullPushForbidden } from '../../core/protected-paths.js';
import { effectiveTargetPath } from '../../core/target-path.js';
import type { RsyncMode, RsyncRunner } from '../../adapters/rsync/index.js';
import { leaseUntil } from '../../platform/leases.js';
import type { ServersService } from '../servers/index.js';
import type { StagingPaths } from '../staging/index.js';
import type { RetriesRepository } from './retries.repository.js';
import type { RetryJobView, RetryOverview, RetryStatus } from './retries.schemas.js';

export const MAX_RETRIES = 3;
export const BACKOFF_BASE_MS = 60_000;
const WORKER_LOCK = 'retries:worker';
// Only spares a second process the work of a sweep: each job is claimed in the database, so a
// lock that expires mid-sweep (or outlives a crashed owner) never runs a job twice.
const WORKER_LOCK_TTL_MS = 60_000;
const DUE_BATCH = 50;
const CONCURRENCY = 5;

export interface FailedPush {
  serverId: number;
  serverName: string | null;
  operator: string | null;
  source: string;
  targetPath: string;
  mode: RsyncMode;
  batchId: string | null;
  error: string;
}

export interface RetryRunSummary {
  ran: number;
  succeeded: number;
  failed: number;
  /** True when another worker held the lock and this call did nothing. */
  skipped: boolean;
}

/**
 * Claims on remote directories, shared with the push engine: a job writes its target only while
 * no batch or other job writes it (or a directory nested in it or containing it).
 */
export interface TargetGuard {
  /** The busy message naming the current writer, or null when the target is now claimed. */
  claimOne(holder: { kind: 'retry_job'; id: number }, target: { serverId: number; targetPath: string }): Promise<string | null>;
  release(holder: { kind: 'retry_job'; id: number }, serverId: number): Promise<void>;
  renew(): Promise<void>;
}

export interface RetriesDeps {
  repo: RetriesRepository;
  runner: RsyncRunner;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  staging: StagingPaths;
  cache: Cache;
  audit: AuditService;
  log: Logger;
  /** This process's lease identity (see platform/leases). */
  owner: string;
  claims: TargetGuard;
}

export function backoffAt(retryCount: number, from = Date.now()): string {
  return new Date(from + BACKOFF_BASE_MS * 2 ** retryCount).toISOString();
}

export function toRetryView(r: RetryJobRow): RetryJobView {
  return {
    id: r.id,
    server_id: r.server_id,
    server_name: r.server_name,
    operator: r.operator,
    source_path: r.source_path,
    target_path: r.target_path,
    status: r.status,
    retry_count: Number(r.retry_count),
    max_retries: Number(r.max_retries),
    next_retry_at: r.next_retry_at,
    last_error: r.last_error,
    created_at: r.created_at,
  };
}

export class RetriesService {
  private readonly stopping = new AbortController();
  private runningJobs = 0;

  constructor(private readonly d: RetriesDeps) {}

  async list(limit = 100): Promise<RetryJobView[]> {
    return (await this.d.repo.list(limit)).map(toRetryView);
  }

  /** How many jobs are in each status (for /metrics). */
  countByStatus(): Promise<Array<{ status: string; n: number }>> {
    return this.d.repo.countByStatus();
  }

  async overview(recent = 5): Promise<RetryOverview> {
    const out: RetryOverview = { pending: 0, running: 0, succeeded: 0, failed: 0, recent_failed: [] };
    for (const { status, n } of await this.d.repo.countByStatus()) {
      if (status === 'pending' || status === 'running' || status === 'succeeded' || status === 'failed') out[status] = n;
    }
    out.recent_failed = (await this.d.repo.listByStatus('failed', recent)).map(toRetryView);
    return out;
  }

  /**
   * Called by the push engine when a server's push succeeded: the same files reached that server,
   * so jobs still waiting or out of attempts for that server and source are done (`succeeded`)
   * and leave the "out of attempts" list. The target is not compared: the usual fix for a failed
   * push is correcting the server's target path and pushing again, after which the job's stored
   * (old, failing) target is obsolete. A job running right now finishes on its own.
   */
  async resolveBySuccess(s: { serverId: number; source: string }): Promise<number> {
    return this.d.repo.resolve(s.serverId, s.source, nowIso());
  }

  /** Called by the push engine for a failed server; returns the job id. */
  async createForFailure(f: FailedPush): Promise<number> {
    const now = nowIso();
    return this.d.repo.create({
      server_id: f.serverId,
      server_name: f.serverName,
      operator: f.operator,
      source_path: f.source,
      target_path: f.targetPath,
      sync_mode: f.mode,
      batch_id: f.batchId,
      status: 'pending',
      retry_count: 0,
      max_retries: MAX_RETRIES,
      next_retry_at: backoffAt(0),
      last_error: f.error,
      created_at: now,
      updated_at: now,
    });
  }

  async retry(actor: Actor, id: number): Promise<RetryJobView> {
    if (!(await this.d.repo.resetToPending(id, nowIso()))) throw new NotFoundError('Retry job not found', 'retry_job_not_found');
    const job = await this.d.repo.get(id);
    if (!job) throw new NotFoundError('Retry job not found', 'retry_job_not_found');
    await this.d.audit.record(actor, 'retry_job', { type: 'retry_job', id, detail: `server_id=${job.server_id}` });
    return toRetryView(job);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const job = await this.d.repo.get(id);
    if (!job || !(await this.d.repo.delete(id))) throw new NotFoundError('Retry job not found', 'retry_job_not_found');
    await this.d.audit.record(actor, 'delete_retry', { type: 'retry_job', id, detail: `server_id=${job.server_id}` });
  }

  /**
   * Runs every due pending job once. One worker at a time holds the cache lock; each job is
   * additionally claimed in the database, so even an expired lock never runs a job twice.
   */
  async runDueRetries(now: Date = new Date()): Promise<RetryRunSummary> {
    const summary: RetryRunSummary = { ran: 0, succeeded: 0, failed: 0, skipped: false };
    if (this.stopping.signal.aborted) return { ...summary, skipped: true };
    const token = await this.d.cache.acquireLock(WORKER_LOCK, WORKER_LOCK_TTL_MS);
    if (!token) return { ...summary, skipped: true };
    try {
      const due = await this.d.repo.due(now.toISOString(), DUE_BATCH);
      await mapLimit(due, CONCURRENCY, async (job) => {
        if (this.stopping.signal.aborted) return;
        const outcome = await this.runJob(job);
        if (outcome === null) return;
        summary.ran++;
        if (outcome) summary.succeeded++;
        else summary.failed++;
      });
    } finally {
      await this.d.cache.releaseLock(WORKER_LOCK, token).catch(() => {});
    }
    return summary;
  }

  /** The background worker: a due-job sweep every `intervalMs`, never two at once in this process. */
  startWorker(intervalMs = 5000): () => Promise<void> {
    const loop = every(intervalMs, () => this.runDueRetries(), (err) =>
      this.d.log.warn({ err }, 'retry sweep failed'),
    );
    return async () => {
      // Abort first: the sweep in progress stops its rsyncs instead of finishing them.
      await this.shutdown();
      await loop.stop();
    };
  }

  /** Stops running rsyncs (their jobs are re-queued as failed attempts) and refuses new sweeps. */
  async shutdown(): Promise<void> {
    this.stopping.abort();
  }

  /** Jobs whose process stopped renewing their lease go back to the queue. */
  async requeueExpired(now = Date.now()): Promise<number> {
    const n = await this.d.repo.requeueExpired(new Date(now).toISOString());
    if (n > 0) this.d.log.warn({ jobs: n }, 'retry jobs whose process stopped are pending again');
    return n;
  }

  /** Keeps the leases of the jobs this process runs; nothing to write when it runs none. */
  async renewLeases(): Promise<void> {
    if (this.runningJobs === 0) return;
    await this.d.repo.renewLeases(this.d.owner, leaseUntil());
    await this.d.claims.renew();
  }

  /** true: succeeded; false: failed this attempt; null: someone else claimed it. */
  private async runJob(job: RetryJobRow): Promise<boolean | null> {
    if (!(await this.d.repo.claim(job.id, this.d.owner, leaseUntil(), nowIso()))) return null;
    this.runningJobs++;
    try {
      return await this.attempt(job);
    } finally {
      this.runningJobs--;
    }
  }

  private async attempt(job: RetryJobRow): Promise<boolean> {
    let error: string | null = null;
    let final = false;
    let busy: string | null = null;
    try {
      const row = await this.d.servers.get(job.server_id).catch(() => null);
      const remotePath = row ? effectiveTargetPath(job.target_path, row.target_path) : '';
      // The same rule as a push: no mirror (with deletion) into a protected directory, ever.
      const forbidden = row && job.sync_mode === 'full' ? fullPushForbidden(remotePath) : null;
      if (!row) {
        error = 'Server not found';
        final = true; // nothing to retry against
      } else if (forbidden) {
        error = `A full push into ${forbidden} is refused`;
        final = true;
      } else {
        const holder = { kind: 'retry_job' as const, id: job.id };
        busy = await this.d.claims.claimOne(holder, { serverId: row.id, targetPath: remotePath });
        if (busy === null) {
          try {
            const source = await this.d.staging.resolveStagingDir(job.source_path);
            const target = await this.d.servers.connectionFor(row.id);
            const r = await this.d.runner.run(target, {
              source,
              remotePath,
              mode: job.sync_mode,
              signal: this.stopping.signal,
            });
            error = r.ok ? null : r.error;
          } finally {
            await this.d.claims.release(holder, row.id).catch((err: unknown) =>
              this.d.log.warn({ retryJobId: job.id, err }, 'target claim not released; it expires with the lease'),
            );
          }
        }
      }
    } catch (err) {
      // Domain errors (source gone, credentials missing) are client-safe; anything else is logged.
      if (isClientSafe(err)) error = err.message.slice(0, 600);
      else {
        this.d.log.warn({ retryJobId: job.id, err }, 'retry job crashed');
        error = 'The retry failed unexpectedly';
      }
    }
    const now = nowIso();
    if (busy !== null) {
      // Someone else is writing the target: wait for the next back-off step without using an attempt.
      const next = backoffAt(Number(job.retry_count));
      await this.d.repo.finish(job.id, this.d.owner, { status: 'pending', next_retry_at: next, last_error: busy }, now);
      this.d.log.info({ retryJobId: job.id, serverId: job.server_id, next }, 'retry job postponed: target busy');
      return false;
    }
    if (error === null) {
      await this.d.repo.finish(job.id, this.d.owner, { status: 'succeeded', next_retry_at: null, last_error: null }, now);
      this.d.log.info({ retryJobId: job.id, serverId: job.server_id }, 'retry job succeeded');
      return true;
    }
    const count = Number(job.retry_count) + 1;
    const exhausted = final || count >= Number(job.max_retries);
    const status: RetryStatus = exhausted ? 'failed' : 'pending';
    await this.d.repo.finish(
      job.id,
      this.d.owner,
      { status, retry_count: count, next_retry_at: exhausted ? null : backoffAt(count), last_error: error },
      now,
    );
    this.d.log.warn({ retryJobId: job.id, serverId: job.server_id, attempt: count, status }, 'retry job attempt failed');
    return false;
  }
}
