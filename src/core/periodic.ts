/**
 * The background loops (health probes, offline detection, retry sweeps, schedules, subscription
 * refresh) share one shape: a task every N ms that must never keep the process alive, never run
 * twice at once in this process, and be waited for on shutdown so nothing writes after close.
 */
export interface Periodic {
  /** Clears the timer and resolves once the run in progress (if any) has settled. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`. A tick that comes while the previous run is still going is
 * skipped. A failed run goes to `onError`; the loop carries on.
 */
export function every(intervalMs: number, task: () => Promise<unknown>, onError: (err: unknown) => void): Periodic {
  let current: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (current || stopped) return;
    current = task()
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => {
        current = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
