/**
 * Stored scripts and running a script on many servers over the shared SSH pool (each server's
 * exit code and the last 64 KiB of stdout and stderr; progress and completion on the live socket).
 * A run answers with every server's exit code and output tails; one server's failure is its
 * own result, never the request's.
 */
import { randomUUID } from 'node:crypto';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, isClientSafe, NotFoundError, UnprocessableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { nowIso } from '../../core/time.js';
import type { ScriptRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { LiveEvent } from '../../platform/events/event-bus.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import { mapLimit } from '../../core/map-limit.js';
import type { ServersService } from '../servers/index.js';
import { scriptCompleteHtml } from './script-report.js';
import type { ScriptsRepository } from './scripts.repository.js';
import type { RunScriptBody, ScriptRunResultView, ScriptRunView, ScriptView } from './scripts.schemas.js';

export const OUTPUT_TAIL_BYTES = 64 * 1024;
export const DEFAULT_TIMEOUT_S = 60;
const RUN_CONCURRENCY = 10;

export interface ScriptRunPlan {
  serverIds: number[];
  content: string;
  /** null: no timeout (a schedule's long task runs to its end). */
  timeoutMs: number | null;
  /** What the run is called in events, the audit log and the notification. */
  label: string;
  scriptId: number | null;
  scheduleId?: number;
}

export interface ScriptsDeps {
  repo: ScriptsRepository;
  ssh: Pick<SshPool, 'exec'>;
  servers: Pick<ServersService, 'get' | 'targetFromRow'>;
  audit: AuditService;
  events: { publish(event: LiveEvent): Promise<void> };
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

  /** POST /api/scripts/run: a stored script (by id) or inline content, never both. */
  async run(actor: Actor, req: RunScriptBody): Promise<ScriptRunView> {
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
    return this.runOn(actor, {
      serverIds: req.server_ids,
      content,
      timeoutMs: (req.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
      label,
      scriptId: hasId ? req.script_id! : null,
    });
  }

  /** Runs `content` on each server (at most 10 at once); also used by script schedules. */
  async runOn(actor: Actor, plan: ScriptRunPlan): Promise<ScriptRunView> {
    const runId = randomUUID();
    const ids = [...new Set(plan.serverIds)];
    const extra = plan.scheduleId === undefined ? {} : { schedule_id: plan.scheduleId };
    const started = performance.now();
    const results = await mapLimit(ids, RUN_CONCURRENCY, (id) => this.runOne(runId, id, plan, extra));
    const succeeded = results.filter((r) => r.exit_code === 0 && !r.error).length;
    void this.d.events.publish({
      type: 'script_complete',
      run_id: runId,
      label: plan.label,
      script_id: plan.scriptId,
      total: results.length,
      succeeded,
      failed: results.length - succeeded,
      duration_ms: Math.round(performance.now() - started),
      ...extra,
    });
    await this.d.audit.record(actor, 'run_script', {
      type: 'script',
      id: plan.scriptId ?? runId,
      detail: `run_id=${runId} script=${plan.label} servers=${ids.join(',')} ok=${succeeded}/${results.length}`.slice(0, 2000),
    });
    // The notification service applies the notify_script_complete switch and never throws.
    await this.d.notifications.notify('script_complete', scriptCompleteHtml(plan.label, results));
    return { run_id: runId, results };
  }

  private async runOne(runId: string, serverId: number, plan: ScriptRunPlan, extra: Record<string, unknown>): Promise<ScriptRunResultView> {
    const base = { server_id: serverId, server_name: null as string | null, exit_code: null as number | null, stdout: '', stderr: '' };
    const row = await this.d.servers.get(serverId).catch((err) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    });
    if (!row) return { ...base, duration_ms: 0, error: 'Server not found' };
    base.server_name = row.name;
    const progress = (fields: Record<string, unknown>) =>
      void this.d.events.publish({ type: 'script_progress', run_id: runId, server_id: serverId, server_name: row.name, ...extra, ...fields });
    progress({ status: 'running' });
    const started = performance.now();
    let result: ScriptRunResultView;
    try {
      const target = await this.d.servers.targetFromRow(row);
      const r = await this.d.ssh.exec(target, plan.content, {
        timeoutMs: plan.timeoutMs ?? undefined,
        maxOutputBytes: OUTPUT_TAIL_BYTES,
      });
      let error: string | null = null;
      if (r.timedOut) error = `Timed out after ${Math.round((plan.timeoutMs ?? 0) / 1000)} s`;
      else if (r.exitCode === null) error = 'The script was killed by a signal';
      result = { ...base, exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, duration_ms: Math.round(r.durationMs), error };
    } catch (err) {
      const safe = isClientSafe(err);
      if (!safe) this.d.log.warn({ runId, serverId, err }, 'script run failed unexpectedly');
      result = {
        ...base,
        duration_ms: Math.round(performance.now() - started),
        error: safe ? (err as Error).message : 'The script could not be run',
      };
    }
    progress({
      status: result.error ? 'failed' : 'finished',
      exit_code: result.exit_code,
      error: result.error,
      duration_ms: result.duration_ms,
      stdout: result.stdout,
      stderr: result.stderr,
    });
    return result;
  }
}
