/**
 * Script runs whose process died. A run is `running` only while a process works on it and renews
 * its lease; one whose lease ran out (a crash, a SIGKILL, a lost host) would otherwise stay
 * `running` forever. Recovery closes it: every server that had not ended is failed with
 * INTERRUPTED_ERROR, the run's status follows from its servers as for any run (`failed`, or
 * `partial` when some had succeeded before the crash). Nothing is re-run: a script may not be
 * safe to run twice, so the operator decides.
 */
import type { Logger } from '../../core/logger.js';
import { runStatusOf, succeededOf } from './script-runner.js';
import type { ScriptRunsRepository } from './script-runs.repository.js';
import type { ScriptRunServer } from './scripts.schemas.js';

export const INTERRUPTED_ERROR = 'Interrupted: the service stopped while the script ran here; it may or may not have finished on this server';

export class ScriptRunRecovery {
  constructor(private readonly d: { runs: ScriptRunsRepository; log: Logger; owner: string }) {}

  renew(until: string): Promise<void> {
    return this.d.runs.renewLeases(this.d.owner, until);
  }

  /** Closes every running run whose lease expired before `now`; answers their ids. */
  async recoverExpired(now = Date.now()): Promise<string[]> {
    const at = new Date(now).toISOString();
    const closed: string[] = [];
    for (const row of await this.d.runs.expiredRunning(at)) {
      const servers = parseResults(row.results).map((s): ScriptRunServer =>
        s.status === 'success' || s.status === 'failed' ? s : { ...s, status: 'failed', error: INTERRUPTED_ERROR },
      );
      const ok = servers.filter(succeededOf).length;
      const fields = {
        status: servers.length ? runStatusOf(servers) : 'failed',
        results: JSON.stringify(servers),
        succeeded: ok,
        failed: servers.length - ok,
        finished_at: at,
      };
      if (await this.d.runs.closeExpired(row.run_id, at, fields)) closed.push(row.run_id);
    }
    if (closed.length) this.d.log.warn({ runs: closed }, 'script runs whose process stopped marked as interrupted');
    return closed;
  }
}

function parseResults(raw: string): ScriptRunServer[] {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? (v as ScriptRunServer[]) : [];
  } catch {
    return [];
  }
}
