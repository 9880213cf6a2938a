/**
 * Running a script on servers (at most 10 at once) over the shared SSH pool, as a stored run:
 * the run row is written before anything starts (so its id can be answered at once), every
 * server's output is streamed into the run's journal as it arrives, each server's result is
 * saved as it ends, and the run's outcome when the last one ends. One server's failure is its
 * own result, never the run's.
 */
import { randomUUID } from 'node:crypto';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Actor } from '../../core/actor.js';
import { isClientSafe, NotFoundError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { mapLimit } from '../../core/map-limit.js';
import { nowIso } from '../../core/time.js';
import { leaseUntil } from '../../platform/leases.js';
import type { ServerRecord } from '../servers/index.js';
import type { ServersService } from '../servers/index.js';
import { OutputPump } from './output-pump.js';
import type { ScriptJournal } from './script-journal.js';
import type { ScriptRunsRepository } from './script-runs.repository.js';
import type { RunStatus, ScriptRunResultView, ScriptRunServer } from './scripts.schemas.js';

export const OUTPUT_TAIL_BYTES = 64 * 1024;
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

export interface StartedRun {
  runId: string;
  plan: ScriptRunPlan;
  actor: Actor;
  /** Each distinct server id with its row (null: no such server). */
  members: Array<{ id: number; row: ServerRecord | null }>;
  startedMs: number;
}

export interface RunnerDeps {
  runs: ScriptRunsRepository;
  journal: ScriptJournal;
  ssh: Pick<SshPool, 'exec'>;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  log: Logger;
  /** This process's lease identity: the run's row names it until the run ends (see script-recovery). */
  owner: string;
}

/** A server's stored result as the run's answer shows it. */
export function toResultView(s: ScriptRunServer): ScriptRunResultView {
  return { server_id: s.server_id, server_name: s.server_name, exit_code: s.exit_code, stdout: s.stdout, stderr: s.stderr, duration_ms: s.duration_ms ?? 0, error: s.error };
}

export const succeededOf = (s: ScriptRunServer) => s.exit_code === 0 && !s.error;

export function runStatusOf(servers: ScriptRunServer[]): Exclude<RunStatus, 'running'> {
  const ok = servers.filter(succeededOf).length;
  return ok === servers.length ? 'success' : ok === 0 ? 'failed' : 'partial';
}

const pendingServer = (m: { id: number; row: ServerRecord | null }): ScriptRunServer => ({
  server_id: m.id, server_name: m.row?.name ?? null, status: 'pending', exit_code: null, duration_ms: null, error: null, stdout: '', stderr: '',
});

export class ScriptRunner {
  constructor(private readonly d: RunnerDeps) {}

  /** Stores the run and announces it; nothing has run yet. */
  async begin(actor: Actor, plan: ScriptRunPlan): Promise<StartedRun> {
    const runId = randomUUID();
    const ids = [...new Set(plan.serverIds)];
    const members = await Promise.all(
      ids.map(async (id) => ({
        id,
        row: await this.d.servers.get(id).catch((err) => {
          if (err instanceof NotFoundError) return null;
          throw err;
        }),
      })),
    );
    await this.d.runs.create({
      run_id: runId, label: plan.label.slice(0, 200), script_id: plan.scriptId, schedule_id: plan.scheduleId ?? null, operator: actor.username,
      server_ids: JSON.stringify(ids), status: 'running', total: ids.length, started_at: nowIso(), results: JSON.stringify(members.map(pendingServer)),
      lease_owner: this.d.owner, lease_expires_at: leaseUntil(),
    });
    void this.d.journal.record(runId, {
      type: 'script_started', label: plan.label, script_id: plan.scriptId, operator: actor.username, total: ids.length,
      servers: members.map((m) => ({ server_id: m.id, server_name: m.row?.name ?? null })),
      ...this.extra(plan),
    });
    return { runId, plan, actor, members, startedMs: performance.now() };
  }

  /** Runs a started run to its end; resolves with every server's result, in the request's order. */
  async execute(run: StartedRun): Promise<{ servers: ScriptRunServer[]; status: RunStatus; durationMs: number }> {
    const servers: ScriptRunServer[] = run.members.map(pendingServer);
    // Results are saved one write at a time, each with every result so far.
    let saving = Promise.resolve();
    const save = () => {
      const json = JSON.stringify(servers);
      const ok = servers.filter(succeededOf).length;
      const ended = servers.filter((s) => s.status === 'success' || s.status === 'failed').length;
      saving = saving.then(() => this.d.runs.saveResults(run.runId, json, ok, ended - ok)).catch((err: unknown) => {
        this.d.log.warn({ err, runId: run.runId }, 'script run results not saved');
      });
    };
    await mapLimit(run.members, RUN_CONCURRENCY, async (m, i) => {
      servers[i] = await this.runOne(run, m.id, m.row);
      save();
    });
    await saving;
    const durationMs = Math.round(performance.now() - run.startedMs);
    const status = runStatusOf(servers);
    const ok = servers.filter(succeededOf).length;
    await this.d.runs
      .finish(run.runId, { status, results: JSON.stringify(servers), succeeded: ok, failed: servers.length - ok, finished_at: nowIso(), duration_ms: durationMs })
      .catch((err: unknown) => this.d.log.warn({ err, runId: run.runId }, 'script run outcome not saved'));
    void this.d.journal.record(run.runId, {
      type: 'script_complete', label: run.plan.label, script_id: run.plan.scriptId, status, total: servers.length, succeeded: ok,
      failed: servers.length - ok, duration_ms: durationMs, ...this.extra(run.plan),
    });
    await this.d.journal.close(run.runId);
    return { servers, status, durationMs };
  }

  private extra(plan: ScriptRunPlan): { schedule_id?: number } {
    return plan.scheduleId === undefined ? {} : { schedule_id: plan.scheduleId };
  }

  private async runOne(run: StartedRun, serverId: number, row: ServerRecord | null): Promise<ScriptRunServer> {
    const base = { server_id: serverId, server_name: row?.name ?? null, exit_code: null as number | null, stdout: '', stderr: '' };
    if (!row) return { ...base, status: 'failed', duration_ms: 0, error: 'Server not found' };
    const { runId, plan } = run;
    const extra = this.extra(plan);
    void this.d.journal.record(runId, { type: 'script_progress', server_id: serverId, server_name: row.name, status: 'running', ...extra });
    const pump = new OutputPump((m) => void this.d.journal.record(runId, { type: 'script_output', server_id: serverId, ...m, ...extra }));
    const started = performance.now();
    let result: ScriptRunServer;
    try {
      const target = await this.d.servers.connectionFor(row.id);
      const r = await this.d.ssh.exec(target, plan.content, {
        timeoutMs: plan.timeoutMs ?? undefined,
        maxOutputBytes: OUTPUT_TAIL_BYTES,
        onData: (stream, chunk) => pump.push(stream, chunk),
      });
      let error: string | null = null;
      if (r.timedOut) error = `Timed out after ${Math.round((plan.timeoutMs ?? 0) / 1000)} s`;
      else if (r.exitCode === null) error = 'The script was killed by a signal';
      const ok = r.exitCode === 0 && !error;
      result = { ...base, status: ok ? 'success' : 'failed', exit_code: r.exitCode, stdout: r.stdout, stderr: r.stderr, duration_ms: Math.round(r.durationMs), error };
    } catch (err) {
      const safe = isClientSafe(err);
      if (!safe) this.d.log.warn({ runId, serverId, err }, 'script run failed unexpectedly');
      const error = safe ? (err as Error).message : 'The script could not be run';
      result = { ...base, status: 'failed', duration_ms: Math.round(performance.now() - started), error };
    }
    pump.flush(true);
    void this.d.journal.record(runId, {
      type: 'script_progress', server_id: serverId, server_name: row.name, status: result.error ? 'failed' : 'finished',
      exit_code: result.exit_code, error: result.error, duration_ms: result.duration_ms ?? 0, stdout: result.stdout, stderr: result.stderr, ...extra,
    });
    return result;
  }
}
