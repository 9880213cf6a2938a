/**
 * Executes one push batch: waves of `batchSize` servers, at most `concurrency` rsyncs at once,
 * the shared cancel flag (cache, then the batch row) checked before each server starts. Every server's result is written as
 * soon as it is known, so the stored batch is always the truth, even after a crash.
 *
 * rsync does not need the database: a write that meets a database outage (a restart, a failover)
 * waits for it, for less than the lease lasts, instead of failing servers whose files arrived.
 *
 * Every write names this process as the batch's lease owner. When one affects nothing, the lease
 * has moved (an outage outlasted it and recovery closed the batch elsewhere): this process stops
 * its transfers, writes and publishes nothing more of the batch, and leaves it to the new owner.
 */
import type { Cache } from '../../adapters/cache/cache.js';
import { isClientSafe } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { nowIso } from '../../core/time.js';
import type { ServerRecord } from '../servers/index.js';
import type { RsyncProgress, RsyncRunner } from '../../adapters/rsync/index.js';
import { throttleLatest } from '../../core/throttle.js';
import { untilDatabaseAnswers } from '../../db/transient.js';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../../platform/leases.js';
import type { RetriesService } from '../retries/index.js';
import type { ServersService } from '../servers/index.js';
import { mapLimit } from '../../core/map-limit.js';
import { effectiveTargetPath } from '../../core/target-path.js';
import { batchStatus, type BatchCounts, type PushRepository } from './push.repository.js';
import { noticeIfFailed, type Notify } from './push-notice.js';
import type { PushJournal } from './push-journal.js';
import type { TargetClaims } from './target-claims.js';
import type { Metrics } from '../../platform/metrics/metrics.js';
import type { BatchStatus, SyncMode } from './push.schemas.js';

export const CANCEL_KEY_PREFIX = 'push:cancel:';
/** Progress messages per server: at most two a second, the newest wins. */
export const PROGRESS_INTERVAL_MS = 500;
export const SHUTDOWN_ERROR = 'interrupted by a service shutdown';
/** How long a batch's write waits for the database: well inside the lease, which is not renewed meanwhile. */
const DB_WAIT_MS = LEASE_TTL_MS - LEASE_RENEW_MS;

export interface BatchDeps {
  repo: PushRepository;
  runner: RsyncRunner;
  retries: Pick<RetriesService, 'createForFailure' | 'resolveBySuccess'>;
  servers: Pick<ServersService, 'connectionFor'>;
  cache: Cache;
  /** Numbers, stores and publishes the batch's live messages. */
  journal: Pick<PushJournal, 'record' | 'close'>;
  /** The batch holds a claim on each member's target; each is released when its transfer ends. */
  claims: Pick<TargetClaims, 'release' | 'releaseAll'>;
  log: Logger;
  /** This process's lease owner id: the one every write of the batch names. */
  owner: string;
  /** Counts each server's outcome, the bytes rsync sent and each closed batch. */
  metrics?: Pick<Metrics, 'pushServerDone' | 'pushBatchDone'>;
  /** Queues a notification (push_failed when a batch closes with a failed server). */
  notify?: Notify;
}

export interface BatchPlan {
  batchId: string;
  operator: string;
  /** Resolved local directory. */
  source: string;
  /** As requested; each server falls back to its own target path, then /tmp/sync. */
  targetPath: string | null;
  mode: SyncMode;
  batchSize: number;
  concurrency: number;
  /** Known servers, in request order. */
  members: ServerRecord[];
  /** Servers already failed at creation (unknown ids, targets busy). */
  failedAtStart: number;
  total: number;
  /** Shutdown: stop the transfers and write the batch down (recoverable by retry jobs). */
  signal: AbortSignal;
  /** Aborted when the lease renewal finds the batch owned by another process. */
  lease?: AbortSignal;
}

export async function executeBatch(d: BatchDeps, p: BatchPlan): Promise<BatchStatus> {
  const counts: BatchCounts = { succeeded: 0, failed: p.failedAtStart, skipped: 0 };
  const started = new Set<number>();
  let cancelled = false;
  let closed = false;
  const lost = new AbortController();
  const signal = AbortSignal.any([p.signal, lost.signal]);
  const leaseLost = (): void => {
    if (lost.signal.aborted || closed) return;
    d.log.warn({ batchId: p.batchId, owner: d.owner }, 'the lease of this push batch moved to another process; stopping its transfers');
    lost.abort();
  };
  p.lease?.addEventListener('abort', leaseLost, { once: true });
  /** Writes results while this process owns the batch; stops the batch here once it does not. */
  const write = async (ids: number[], u: Parameters<PushRepository['updateResult']>[2]): Promise<void> => {
    if (lost.signal.aborted) return;
    const ok = await untilDatabaseAnswers(() => d.repo.updateResult(p.batchId, ids, u, d.owner), waitFor('push result'));
    if (!ok) leaseLost();
  };
  const waitFor = (what: string) => ({ deadlineMs: DB_WAIT_MS, log: d.log, what: `${what} of batch ${p.batchId}` });

  /** The cache's flag, else the batch row's copy (a cancel sent while the cache was down). */
  const isCancelled = async (): Promise<boolean> => {
    try {
      if ((await d.cache.get(`${CANCEL_KEY_PREFIX}${p.batchId}`)) !== null) return true;
    } catch (err) {
      d.log.warn({ batchId: p.batchId, err }, 'cancel flag unreadable in the cache; asking the database');
    }
    try {
      return await d.repo.cancelRequested(p.batchId);
    } catch (err) {
      d.log.warn({ batchId: p.batchId, err }, 'cancel flag unreadable');
      return false;
    }
  };
  const progress = (serverId: number, status: string, extra: Record<string, unknown> = {}): void => {
    if (lost.signal.aborted) return;
    void d.journal.record(p.batchId, { type: 'push_progress', server_id: serverId, status, ...extra });
  };

  const runOne = async (row: ServerRecord): Promise<void> => {
    if (cancelled || signal.aborted) return;
    if (await isCancelled()) {
      cancelled = true;
      return;
    }
    started.add(row.id);
    await write([row.id], { status: 'running' });
    if (lost.signal.aborted) return;
    progress(row.id, 'running', { server_name: row.name });
    const remotePath = effectiveTargetPath(p.targetPath, row.target_path);
    let outcome: { ok: boolean; error: string | null; files: number; bytes: number; durationMs: number };
    const transfer = throttleLatest<RsyncProgress>(PROGRESS_INTERVAL_MS, (t) =>
      progress(row.id, 'running', {
        server_name: row.name,
        percent: t.percent,
        bytes_transferred: t.bytes,
        rate_bps: t.rateBps,
        eta_s: t.etaSeconds,
      }),
    );
    try {
      const target = await d.servers.connectionFor(row.id);
      const r = await d.runner.run(target, {
        source: p.source,
        remotePath,
        mode: p.mode,
        signal,
        onProgress: (t) => transfer.push(t),
        progressIntervalMs: PROGRESS_INTERVAL_MS,
      });
      outcome = {
        ok: r.ok,
        error: r.error,
        files: r.stats?.regularFilesTransferred ?? 0,
        bytes: r.stats?.totalTransferredFileSize ?? 0,
        durationMs: r.durationMs,
      };
    } catch (err) {
      // connectionFor: missing credentials (400) or an unreadable secret; both messages are safe.
      const safe = isClientSafe(err);
      if (!safe) d.log.warn({ batchId: p.batchId, serverId: row.id, err }, 'push could not start');
      outcome = { ok: false, error: safe ? err.message : 'The push could not be started', files: 0, bytes: 0, durationMs: 0 };
    } finally {
      // The outcome below reports the final figures; a progress message after it would be stale.
      transfer.cancel();
      // The transfer is over: another push may write this target now.
      await d.claims.release({ kind: 'batch', id: p.batchId }, row.id).catch((err: unknown) =>
        d.log.warn({ batchId: p.batchId, serverId: row.id, err }, 'target claim not released; it expires with the lease'),
      );
    }
    if (lost.signal.aborted) return;
    d.metrics?.pushServerDone(outcome.ok ? 'success' : 'failed', outcome.ok ? outcome.bytes : 0);
    if (outcome.ok) {
      counts.succeeded++;
      await write([row.id], {
        status: 'success',
        files_transferred: outcome.files,
        bytes_transferred: outcome.bytes,
        duration_ms: outcome.durationMs,
        error: null,
      });
      progress(row.id, 'success', {
        server_name: row.name,
        files_transferred: outcome.files,
        bytes_transferred: outcome.bytes,
        duration_ms: outcome.durationMs,
      });
      await resolveRetries(d, p, row);
      return;
    }
    counts.failed++;
    const error = outcome.error ?? 'rsync failed';
    const retryJobId = await failWithRetry(d, p, row, remotePath, error, outcome.durationMs);
    if (retryJobId === LEASE_LOST) return leaseLost();
    progress(row.id, 'failed', { server_name: row.name, error, retry_job_id: retryJobId, duration_ms: outcome.durationMs });
  };

  for (let i = 0; i < p.members.length && !cancelled && !signal.aborted; i += p.batchSize) {
    await mapLimit(p.members.slice(i, i + p.batchSize), p.concurrency, runOne);
  }
  // The new owner has closed (or is closing) the batch: nothing here is the truth any more.
  if (lost.signal.aborted) return 'failed';

  const notStarted = p.members.filter((m) => !started.has(m.id));
  if (notStarted.length > 0 && cancelled) {
    counts.skipped += notStarted.length;
    for (const _ of notStarted) d.metrics?.pushServerDone('skipped');
    await write(notStarted.map((m) => m.id), { status: 'skipped' });
    for (const m of notStarted) progress(m.id, 'skipped', { server_name: m.name });
  } else if (notStarted.length > 0) {
    // Shut down before these started: failed, but recoverable through their retry jobs.
    for (const m of notStarted) {
      counts.failed++;
      const retryJobId = await failWithRetry(d, p, m, effectiveTargetPath(p.targetPath, m.target_path), SHUTDOWN_ERROR, 0);
      if (retryJobId === LEASE_LOST) leaseLost();
      progress(m.id, 'failed', { server_name: m.name, error: SHUTDOWN_ERROR, retry_job_id: retryJobId });
    }
  }

  // Servers skipped or never started still hold their claims.
  await d.claims.releaseAll({ kind: 'batch', id: p.batchId }).catch((err: unknown) =>
    d.log.warn({ batchId: p.batchId, err }, 'target claims not released; they expire with the lease'),
  );
  const status = batchStatus(counts, cancelled);
  // From here the lease is being dropped: a renewal no longer finding the batch is no news.
  closed = true;
  const finished = lost.signal.aborted
    ? false
    : await untilDatabaseAnswers(() => d.repo.finishBatch(p.batchId, status, counts, nowIso(), d.owner), waitFor('closing'));
  if (!finished) {
    d.log.warn({ batchId: p.batchId, owner: d.owner }, 'the lease of this push batch moved to another process before it was closed here');
    return status;
  }
  d.log.info({ batchId: p.batchId, status, ...counts }, 'push batch finished');
  d.metrics?.pushBatchDone(status);
  noticeIfFailed(d, p.batchId, counts, p.total);
  await d.journal.record(p.batchId, { type: 'push_complete', status, total: p.total, operator: p.operator, ...counts });
  await d.journal.close(p.batchId);
  return status;
}

/** A server's push succeeded: its earlier failures of the same push are no longer outstanding. */
async function resolveRetries(d: Pick<BatchDeps, 'retries' | 'log'>, p: Pick<BatchPlan, 'batchId' | 'source'>, row: Pick<ServerRecord, 'id'>) {
  try {
    await d.retries.resolveBySuccess({ serverId: row.id, source: p.source });
  } catch (err) {
    d.log.warn({ batchId: p.batchId, serverId: row.id, err }, 'retry jobs not resolved');
  }
}

/** failWithRetry's answer when this process no longer owns the batch (nothing was written). */
export const LEASE_LOST = 'lease_lost';

/**
 * A server's push failed: a retry job for it (when one can be made) and its result row written
 * down, by the batch's lease owner only: a process that lost the lease makes no retry job (the
 * new owner makes one for every unfinished server), so no failure gets two.
 */
export async function failWithRetry(
  d: Pick<BatchDeps, 'retries' | 'repo' | 'log' | 'owner'>,
  p: Pick<BatchPlan, 'batchId' | 'operator' | 'source' | 'mode'>,
  row: Pick<ServerRecord, 'id' | 'name'>,
  remotePath: string,
  error: string,
  durationMs: number,
): Promise<number | null | typeof LEASE_LOST> {
  const wait = { deadlineMs: DB_WAIT_MS, log: d.log, what: `failed result of batch ${p.batchId}` };
  if (!(await untilDatabaseAnswers(() => d.repo.ownsBatch(p.batchId, d.owner), wait))) return LEASE_LOST;
  let retryJobId: number | null = null;
  const job = () =>
    d.retries.createForFailure({
      serverId: row.id,
      serverName: row.name,
      operator: p.operator,
      source: p.source,
      targetPath: remotePath,
      mode: p.mode,
      batchId: p.batchId,
      error,
    });
  try {
    retryJobId = await untilDatabaseAnswers(job, wait);
  } catch (err) {
    d.log.error({ batchId: p.batchId, serverId: row.id, err }, 'retry job not created');
  }
  const update = { status: 'failed' as const, error, duration_ms: durationMs, retry_job_id: retryJobId };
  if (!(await untilDatabaseAnswers(() => d.repo.updateResult(p.batchId, [row.id], update, d.owner), wait))) return LEASE_LOST;
  return retryJobId;
}
