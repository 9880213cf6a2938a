/**
 * When the primary forks a worker again after it died. Each crash of a worker that had not yet
 * run for `stableMs` extends the streak and doubles the wait (from `baseMs`, at most `maxMs`), so
 * a worker that dies at start (a port taken, a broken configuration) does not spin in a tight
 * loop; the `limit`-th crash of a streak gives up, and the primary exits non-zero so that the
 * service manager (systemd, Docker, Kubernetes) sees the failure instead of a service that looks
 * up and never serves. A worker that ran for `stableMs` and then died starts a new streak: it is
 * simply replaced. (Uptime, not a window of wall time, so a slow start cannot hide a crash loop.)
 */
export interface RestartPolicyOptions {
  baseMs: number;
  maxMs: number;
  stableMs: number;
  limit: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { baseMs: 1_000, maxMs: 30_000, stableMs: 60_000, limit: 5 };

export type RestartDecision = { action: 'restart'; delayMs: number; streak: number } | { action: 'give-up'; streak: number };

export class RestartPolicy {
  private streak = 0;

  constructor(private readonly o: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** A worker died after running `uptimeMs`: fork again after `delayMs`, or give up. */
  onCrash(uptimeMs: number): RestartDecision {
    this.streak = uptimeMs >= this.o.stableMs ? 1 : this.streak + 1;
    if (this.streak >= this.o.limit) return { action: 'give-up', streak: this.streak };
    return { action: 'restart', delayMs: Math.min(this.o.maxMs, this.o.baseMs * 2 ** (this.streak - 1)), streak: this.streak };
  }
}
