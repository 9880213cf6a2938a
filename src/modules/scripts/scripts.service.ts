/**
 * Stored scripts, and running a script on many servers over the shared SSH pool (see
 * script-runner.ts): each run is stored with every server's exit code and the last 64 KiB of
 * stdout and stderr, and its output is streamed to the live socket as numbered messages that a
 * page can replay. A run answers with every server's result; one server's failure is its own
 * result, never the request's.
 */
import type { Actor } from '../../core/actor.js';
import { BadRequestError, NotFoundError, UnprocessableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { nowIso, parseDateBound } from '../../core/time.js';
import type { ScriptRow, ScriptRunRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import type { ScriptJournal } from './script-journal.js';
import { type ScriptRunner, type ScriptRunPlan, type StartedRun, succeededOf, toResultView } from './script-runner.js';
import type { ScriptRunsRepository } from './script-runs.repository.js';
import type { ScriptsRepository } from './scripts.repository.js';
import type {
  RunScriptBody, ScriptRunDetail, ScriptRunEventsView, ScriptRunServer, ScriptRunSummary, ScriptRunsPage, ScriptRunsQuery, ScriptRunView, ScriptView,
} from './scripts.schemas.js';

export { OUTPUT_TAIL_BYTES, type ScriptRunPlan } from './script-runner.js';
export const DEFAULT_TIMEOUT_S = 60;

export interface ScriptsDeps {
  repo: ScriptsRepository;
  runs: ScriptRunsRepository;
  runner: ScriptRunner;
  journal: ScriptJournal;
  audit: AuditService;
  notifications: Pick<NotificationService, 'notify'>;
  log: Logger;
}

const toView = (r: ScriptRow): ScriptView => ({ id: r.id, name: r.name, content: r.content, created_at: r.created_at });

export class ScriptsService {
  constructor(private readonly d: ScriptsDeps) {}

  async list(): Promise<ScriptView[]> {
    return (await this.d.repo.list()).map(toView);
  }

  async get(id: number): Promise<ScriptView> {
    const row = await this.d.repo.get(id);
    if (!row) throw new NotFoundError('Script not found', 'script_not_found');
    return toView(row);
  }

  async create(actor: Actor, input: { name: string; content: string }): Promise<ScriptView> {
    const row = await this.d.repo.create({ name: input.name.trim() || input.name, content: input.content, created_at: nowIso() });
    await this.d.audit.record(actor, 'create_script', { type: 'script', id: row.id, detail: `name=${row.name}` });
    return toView(row);
  }

  async update(actor: Actor, id: number, input: { name?: string; content?: string }): Promise<ScriptView> {
    const patch: { name?: string; content?: string } = {};
    if (input.name !== undefined) patch.name = input.name.trim() || input.name;
    if (input.content !== undefined) patch.content = input.content;
    const row = await this.d.repo.update(id, patch);
    if (!row) throw new NotFoundError('Script not found', 'script_not_found');
    await this.d.audit.record(actor, 'update_script', { type: 'script', id, detail: `fields=${Object.keys(patch).join(',')}` });
    return toView(row);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.d.repo.get(id);
    if (!row || !(await this.d.repo.delete(id))) throw new NotFoundError('Script not found', 'script_not_found');
    await this.d.audit.record(actor, 'delete_script', { type: 'script', id, detail: `name=${row.name}` });
  }

  /**
   * POST /api/scripts/run: a stored script (by id) or inline content, never both. With `async`
   * the run is stored and started, and its id answered before any server has ended.
   */
  async run(actor: Actor, req: RunScriptBody): Promise<{ async: true; run_id: string } | { async: false; view: ScriptRunView }> {
    const hasId = req.script_id !== undefined && req.script_id !== null;
    const hasContent = req.script_content !== undefined && req.script_content !== null;
    if (hasId && hasContent) throw new BadRequestError('Give either script_id or script_content, not both', 'script_source_ambiguous');
    if (!hasId && !hasContent) {
      throw new UnprocessableError('Validation failed: body.script_id or body.script_content is required', [
        { path: 'body.script_id', message: 'script_id or script_content is required' },
      ]);
    }
    let content = req.script_content ?? '';
    let label = 'inline script';
    if (hasId) {
      const script = await this.d.repo.get(req.script_id!);
      if (!script) throw new NotFoundError('Script not found', 'script_not_found');
      content = script.content;
      label = script.name;
    }
    if (!content.trim()) throw new BadRequestError('The script is empty', 'script_empty');
    const plan = { serverIds: req.server_ids, content, timeoutMs: (req.timeout ?? DEFAULT_TIMEOUT_S) * 1000, label, scriptId: hasId ? req.script_id! : null };
    const run = await this.d.runner.begin(actor, plan);
    if (!req.async) return { async: false, view: await this.finish(run) };
    void this.finish(run).catch((err: unknown) => this.d.log.warn({ err, runId: run.runId }, 'background script run failed'));
    return { async: true, run_id: run.runId };
  }

  /** Runs `content` on each server (at most 10 at once) and answers when all have ended; also used by script schedules. */
  async runOn(actor: Actor, plan: ScriptRunPlan): Promise<ScriptRunView> {
    return this.finish(await this.d.runner.begin(actor, plan));
  }

  private async finish(run: StartedRun): Promise<ScriptRunView> {
    const { servers } = await this.d.runner.execute(run);
    const results = servers.map(toResultView);
    const ok = servers.filter(succeededOf).length;
    await this.d.audit.record(run.actor, 'run_script', {
      type: 'script',
      id: run.plan.scriptId ?? run.runId,
      detail: `run_id=${run.runId} script=${run.plan.label} servers=${run.members.map((m) => m.id).join(',')} ok=${ok}/${results.length}`.slice(0, 2000),
    });
    // The notification service applies the notify_script_complete switch and never throws.
    await this.d.notifications.notify({ kind: 'script_complete', label: run.plan.label, results });
    return { run_id: run.runId, results };
  }

  /** GET /api/scripts/runs: newest first, filtered by status and start time. */
  async listRuns(q: ScriptRunsQuery): Promise<ScriptRunsPage> {
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const from = q.from ? parseDateBound(q.from, 'from', 'query.from') : undefined;
    const to = q.to ? parseDateBound(q.to, 'to', 'query.to') : undefined;
    const { rows, total } = await this.d.runs.list({ status: q.status, from, to, limit, offset });
    return { items: rows.map(toSummary), total, limit, offset };
  }

  async getRun(runId: string): Promise<ScriptRunDetail> {
    const row = await this.d.runs.get(runId);
    if (!row) throw new NotFoundError('Script run not found', 'script_run_not_found');
    return { ...toSummary(row), servers: JSON.parse(row.results) as ScriptRunServer[] };
  }

  /** The run's live messages after `after`: what a page that reloads or reconnects missed. */
  async eventsOf(runId: string, after: number, limit: number): Promise<ScriptRunEventsView> {
    const row = await this.d.runs.get(runId);
    if (!row) throw new NotFoundError('Script run not found', 'script_run_not_found');
    const events = await this.d.journal.since(runId, after, limit);
    return {
      run_id: runId,
      status: row.status,
      events,
      last_seq: events.at(-1)?.seq ?? after,
      more: events.length === limit,
    };
  }
}

function toSummary(r: Omit<ScriptRunRow, 'results' | 'lease_owner' | 'lease_expires_at'>): ScriptRunSummary {
  return {
    run_id: r.run_id, label: r.label, script_id: r.script_id, schedule_id: r.schedule_id, operator: r.operator, status: r.status,
    total: Number(r.total), succeeded: Number(r.succeeded), failed: Number(r.failed), server_ids: JSON.parse(r.server_ids) as number[],
    started_at: r.started_at, finished_at: r.finished_at, duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
  };
}
