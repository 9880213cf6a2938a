/**
 * The push engine: a staged directory to many servers with rsync over SSH, plus dry-run preview,
 * cancel and the stored batch history. Every input is checked before anything starts; after
 * that, failures belong to single servers, never to the request. A batch carries a lease renewed
 * by the process running it; a batch whose lease ran out is recovered by any process: its
 * unfinished servers fail with a retry job each, so the push still completes.
 */
import { randomUUID } from 'node:crypto';
import { noticeIfFailed } from './push-notice.js';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import type { PushResultRow } from '../../db/types.js';
import type { ServerRecord } from '../servers/index.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { leaseUntil } from '../../platform/leases.js';
import type { ServersService } from '../servers/index.js';
import type { StagingPaths } from '../staging/index.js';
import { CANCEL_KEY_PREFIX, executeBatch, failWithRetry, LEASE_LOST, type BatchDeps } from './push-batch.js';
import { toPreview } from './push-preview.js';
import { refuseFullPushInto } from '../../core/protected-paths.js';
import { effectiveTargetPath } from '../../core/target-path.js';
import { batchStatus, type NewResult } from './push.repository.js';
import { summaryOf, toBatchView } from './push-views.js';
import type { PushJournal } from './push-journal.js';
import { TARGET_BUSY, type TargetClaims } from './target-claims.js';
import type { BatchEventsView, BatchSummaryPage, BatchSummaryQuery, BatchView, PreviewBody, PreviewView, SyncFilesBody, SyncMode } from './push.schemas.js';
import type { Metrics } from '../../platform/metrics/metrics.js';

export const DEFAULT_BATCH_SIZE = 50;
export const DEFAULT_CONCURRENCY = 5;
const CANCEL_TTL_SECONDS = 3600;
const PREVIEW_TIMEOUT_MS = 5 * 60_000;
export const RESTART_ERROR = 'interrupted by a service restart';

export interface PushDeps extends BatchDeps {
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  staging: StagingPaths;
  cache: Cache;
  audit: AuditService;
  /** This process's lease identity (see platform/leases). */
  owner: string;
  journal: Pick<PushJournal, 'record' | 'close' | 'since'>;
  claims: TargetClaims;
  metrics?: Pick<Metrics, 'pushServerDone' | 'pushBatchDone' | 'leasesRecovered'>;
}

export type StartOutcome = { async: true; batch_id: string } | { async: false; batch: BatchView };

export class PushService {
  /** Batches this process is executing, so shutdown can stop them and callers can wait. */
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController; lease: AbortController }>();

  constructor(private readonly d: PushDeps) {}

  async start(actor: Actor, req: SyncFilesBody): Promise<StartOutcome> {
    const source = await this.d.staging.resolveStagingDir(req.source_path);
    const mode: SyncMode = req.sync_mode ?? 'incremental';
    const targetPath = req.target_path?.trim() || null;
    const batchId = req.batch_id ?? randomUUID();
    if (req.batch_id !== undefined && (await this.d.repo.batchExists(batchId))) {
      throw new ConflictError(`Batch ${batchId} already exists`, 'batch_exists');
    }

    // Unknown ids fail alone ("Server not found", no retry job): the others still run.
    const ids = [...new Set(req.server_ids)];
    const rows = await Promise.all(ids.map((id) => this.d.servers.get(id).catch((err) => this.notFoundAsNull(err))));
    const members = rows.filter((r): r is ServerRecord => r !== null);
    if (targetPath) refuseFullPushInto(mode, targetPath);
    else for (const m of members) refuseFullPushInto(mode, effectiveTargetPath(null, m.target_path), m.name);
    const results: NewResult[] = ids.map((id, i) =>
      rows[i]
        ? { server_id: id, server_name: rows[i].name, status: 'pending' }
        : { server_id: id, server_name: null, status: 'failed', error: 'Server not found' },
    );
    const created = await this.d.repo.createBatch(
      {
        batch_id: batchId,
        status: 'running',
        operator: actor.username,
        source_path: source,
        target_path: targetPath,
        sync_mode: mode,
        started_at: nowIso(),
        total: ids.length,
        succeeded: 0,
        failed: ids.length - members.length,
        skipped: 0,
        lease_owner: this.d.owner,
        lease_expires_at: leaseUntil(),
      },
      results,
    );
    if (!created) throw new ConflictError(`Batch ${batchId} already exists`, 'batch_exists');
    const busy = await this.claimTargets(batchId, targetPath, members, ids.length);
    const runnable = members.filter((m) => !busy.has(m.id));
    const failedAtStart = ids.length - runnable.length;
    // Unknown servers and busy targets failed before any transfer: counted with the others.
    for (let i = 0; i < failedAtStart; i++) this.d.metrics?.pushServerDone('failed');
    await this.d.audit.record(actor, 'sync_files', {
      type: 'batch',
      id: batchId,
      detail: `servers=${ids.join(',')} mode=${mode} source=${source} target=${targetPath ?? '(server default)'}`.slice(0, 2000),
    });

    await this.d.journal.record(batchId, {
      type: 'push_started',
      operator: actor.username,
      source_path: source,
      target_path: targetPath,
      sync_mode: mode,
      total: ids.length,
      failed: failedAtStart,
    });
    for (const m of members) {
      const error = busy.get(m.id);
      if (error) this.publish(batchId, m.id, 'failed', { server_name: m.name, error, error_code: TARGET_BUSY, retry_job_id: null });
    }

    const abort = new AbortController();
    const lease = new AbortController();
    const done = executeBatch(this.d, {
      batchId,
      operator: actor.username,
      source,
      targetPath,
      mode,
      batchSize: req.batch_size ?? DEFAULT_BATCH_SIZE,
      concurrency: req.concurrency ?? DEFAULT_CONCURRENCY,
      members: runnable,
      failedAtStart,
      total: ids.length,
      signal: abort.signal,
      lease: lease.signal,
    })
      .then(() => undefined)
      .catch((err) => {
        this.d.log.error({ batchId, err }, 'push batch crashed');
      })
      .finally(() => this.running.delete(batchId));
    this.running.set(batchId, { done, abort, lease });

    if (req.async) return { async: true, batch_id: batchId };
    await done;
    return { async: false, batch: await this.getBatch(batchId) };
  }

  async preview(actor: Actor, req: PreviewBody): Promise<PreviewView> {
    const row = await this.d.servers.get(req.server_id);
    const source = await this.d.staging.resolveStagingDir(req.source_path);
    const mode: SyncMode = req.sync_mode ?? 'incremental';
    const remotePath = effectiveTargetPath(req.target_path, row.target_path);
    refuseFullPushInto(mode, remotePath, req.target_path?.trim() ? undefined : row.name);
    const target = await this.d.servers.connectionFor(row.id);
    const r = await this.d.runner.run(target, { source, remotePath, mode, dryRun: true, itemize: true, timeoutMs: PREVIEW_TIMEOUT_MS });
    const error = r.ok && !r.stats ? 'rsync reported no statistics' : r.error;
    await this.d.audit.record(actor, 'sync_preview', {
      type: 'server',
      id: row.id,
      detail: `mode=${mode} source=${source} target=${remotePath}${error ? ` error=${error}` : ''}`.slice(0, 2000),
    });
    if (error !== null || !r.stats) throw new BadRequestError(error ?? 'rsync failed', 'rsync_failed');
    return toPreview(row, mode, r.stats, r.stdout, req.verbose ?? false);
  }

  /**
   * Sets the shared flag in the cache (every worker sees it at once) and on the batch's row (it
   * survives a cache outage or a cache restarted empty); the engine checks both before starting
   * the next server. Either store is enough, so a cancel of a running batch works while Redis is
   * down; only when neither takes it is the answer a 503 (retry shortly), and nothing is audited.
   */
  async cancel(actor: Actor, batchId: string): Promise<{ cancelled: true; batch_id: string }> {
    const [inCache, inDb] = await Promise.allSettled([
      this.d.cache.set(`${CANCEL_KEY_PREFIX}${batchId}`, '1', CANCEL_TTL_SECONDS),
      this.d.repo.requestCancel(batchId, nowIso()),
    ]);
    // The row only takes a cancel of a running batch; a cancel sent ahead of its batch needs the cache.
    const onRow = inDb.status === 'fulfilled' && inDb.value;
    if (inCache.status === 'rejected' && !onRow) {
      this.d.log.error({ batchId, err: inCache.reason, dbErr: inDb.status === 'rejected' ? inDb.reason : undefined }, 'cancel flag not stored');
      throw new ServiceUnavailableError('The cancel could not be stored: neither the cache nor the database answers; retry shortly');
    }
    if (inCache.status === 'rejected') this.d.log.warn({ batchId, err: inCache.reason }, 'cancel flag kept in the database only (cache unavailable)');
    await this.d.audit.record(actor, 'sync_cancel', { type: 'batch', id: batchId });
    return { cancelled: true, batch_id: batchId };
  }

  async getBatch(batchId: string): Promise<BatchView> {
    const batch = await this.d.repo.getBatch(batchId);
    if (!batch) throw new NotFoundError('Batch not found', 'batch_not_found');
    return toBatchView(batch, await this.d.repo.resultsOf([batchId]));
  }

  /** The batch's live messages after `after` (its seq), oldest first: what a reconnecting page missed. */
  async eventsOf(batchId: string, after: number, limit: number): Promise<BatchEventsView> {
    const batch = await this.d.repo.getBatch(batchId);
    if (!batch) throw new NotFoundError('Batch not found', 'batch_not_found');
    const events = (await this.d.journal.since(batchId, after, limit + 1)) as BatchEventsView['events'];
    const more = events.length > limit;
    const page = more ? events.slice(0, limit) : events;
    return { batch_id: batchId, status: batch.status, events: page, last_seq: page.at(-1)?.seq ?? after, more };
  }

  /** Batches without their per-server results, newest first: the history list. */
  async summaries(q: BatchSummaryQuery): Promise<BatchSummaryPage> {
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const { rows, total } = await this.d.repo.pageBatches(q.status, limit, offset);
    return { items: rows.map((b) => summaryOf(b)), total, limit, offset };
  }

  async listBatches(limit = 20): Promise<BatchView[]> {
    const batches = await this.d.repo.listBatches(limit);
    const results = await this.d.repo.resultsOf(batches.map((b) => b.batch_id));
    const byBatch = new Map<string, PushResultRow[]>();
    for (const r of results) byBatch.set(r.batch_id, [...(byBatch.get(r.batch_id) ?? []), r]);
    return batches.map((b) => toBatchView(b, byBatch.get(b.batch_id) ?? []));
  }

  /** Resolves when a batch started by this process has finished (immediately if it is not running here). */
  async waitFor(batchId: string): Promise<void> {
    await this.running.get(batchId)?.done;
  }

  /**
   * Keeps the leases of the batches this process runs; nothing to write when it runs none. A
   * batch running here whose lease another process took over (recovery, after an outage longer
   * than the lease) is told so, and stops its transfers.
   */
  async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    const owned = new Set(await this.d.repo.renewLeases(this.d.owner, leaseUntil()));
    for (const [batchId, b] of this.running) if (!owned.has(batchId)) b.lease.abort();
    await this.d.claims.renew();
  }

  /**
   * Closes running batches whose lease ran out (their process died or a restart came between):
   * unfinished servers fail with a retry job each. Returns the batch ids it closed.
   */
  async recoverExpired(now = Date.now()): Promise<string[]> {
    const nowIsoText = new Date(now).toISOString();
    const closed: string[] = [];
    for (const batch of await this.d.repo.expiredBatches(nowIsoText)) {
      if (!(await this.d.repo.takeOver(batch.batch_id, this.d.owner, nowIsoText, leaseUntil(now)))) continue;
      const plan = { batchId: batch.batch_id, operator: batch.operator ?? 'system', source: batch.source_path, mode: batch.sync_mode };
      let lost = false;
      for (const r of await this.d.repo.unfinishedResults(batch.batch_id)) {
        const row = await this.d.servers.get(r.server_id).catch((err) => this.notFoundAsNull(err));
        const remotePath = effectiveTargetPath(batch.target_path, row?.target_path);
        const member = row ?? { id: r.server_id, name: r.server_name ?? `#${r.server_id}` };
        const retryJobId = await failWithRetry(this.d, plan, member, remotePath, RESTART_ERROR, 0);
        // This recovery outlived its own lease (another took the batch over): that one finishes it.
        if (retryJobId === LEASE_LOST) {
          lost = true;
          break;
        }
        this.publish(batch.batch_id, r.server_id, 'failed', { server_name: member.name, error: RESTART_ERROR, retry_job_id: retryJobId });
        this.d.metrics?.pushServerDone('failed');
      }
      const { succeeded, failed, skipped } = await this.d.repo.countResults(batch.batch_id);
      const counts = { succeeded, failed, skipped };
      const status = batchStatus(counts, false);
      if (lost || !(await this.d.repo.finishBatch(batch.batch_id, status, counts, nowIso(), this.d.owner))) continue;
      await this.d.claims.releaseAll({ kind: 'batch', id: batch.batch_id });
      noticeIfFailed(this.d, batch.batch_id, counts, Number(batch.total));
      await this.d.journal.record(batch.batch_id, { type: 'push_complete', status, total: Number(batch.total), operator: batch.operator, ...counts });
      await this.d.journal.close(batch.batch_id);
      closed.push(batch.batch_id);
    }
    if (closed.length) this.d.log.warn({ batches: closed }, 'recovered push batches whose process stopped');
    this.d.metrics?.leasesRecovered('push', closed.length);
    // Claims of any holder (batch or retry job) whose process stopped renewing them.
    const expired = await this.d.claims.releaseExpired(now);
    if (expired) this.d.log.warn({ claims: expired }, 'released target claims whose process stopped');
    return closed;
  }

  /** Stops the running rsyncs and waits until their batches are written down. */
  async shutdown(): Promise<void> {
    const all = [...this.running.values()];
    for (const b of all) b.abort.abort();
    await Promise.all(all.map((b) => b.done));
  }

  /**
   * Claims every member's target for the batch. A server whose target (or a directory nested in
   * it, or containing it) another batch or retry job is writing fails at once with `target_busy`
   * and the holder's name, and gets no retry job: pushing into a target someone else is writing
   * is the operator's call. The others run. Returns the busy servers' messages.
   */
  private async claimTargets(batchId: string, targetPath: string | null, members: ServerRecord[], total: number): Promise<Map<number, string>> {
    let busy: Map<number, string>;
    try {
      busy = await this.d.claims.claim(
        { kind: 'batch', id: batchId },
        members.map((m) => ({ serverId: m.id, targetPath: effectiveTargetPath(targetPath, m.target_path) })),
      );
    } catch (err) {
      // Nothing may stay running (and renewed) without an engine behind it.
      await this.d.claims.releaseAll({ kind: 'batch', id: batchId }).catch(() => {});
      await this.d.repo.updateResult(batchId, members.map((m) => m.id), { status: 'failed', error: 'The push could not be started' }, this.d.owner);
      await this.d.repo.finishBatch(batchId, 'failed', { succeeded: 0, failed: total, skipped: 0 }, nowIso(), this.d.owner);
      throw err;
    }
    for (const [serverId, error] of busy) {
      await this.d.repo.updateResult(batchId, [serverId], { status: 'failed', error, error_code: TARGET_BUSY }, this.d.owner);
    }
    return busy;
  }

  private publish(batchId: string, serverId: number, status: string, extra: Record<string, unknown>): void {
    void this.d.journal.record(batchId, { type: 'push_progress', server_id: serverId, status, ...extra });
  }

  private notFoundAsNull(err: unknown): null {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
