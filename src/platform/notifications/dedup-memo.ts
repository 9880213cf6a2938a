/**
 * The dedup keys this process queued, with when: a repeated alert (a server flapping around its
 * threshold) is recognised without reading the outbox again. It only ever answers "seen" for a key
 * whose row this process wrote inside the window; rows are pruned after days, not minutes, so the
 * outbox would answer the same. Anything else (a key from another process, an expired entry) is
 * left to the outbox read. Bounded: expired entries go first, then the oldest. It also lets one
 * call at a time check and queue a key (`hold`).
 */
export class DedupMemo {
  private readonly at = new Map<string, number>();
  /** Keys a call of this process is queuing right now (read to write), and when it is done. */
  private readonly queuing = new Map<string, Promise<void>>();

  constructor(private readonly max = 10_000) {}

  /** Whether every key was queued here at or after `sinceMs` (false for an empty list). */
  allSeen(keys: readonly string[], sinceMs: number): boolean {
    return keys.length > 0 && keys.every((k) => (this.at.get(k) ?? -Infinity) >= sinceMs);
  }

  remember(keys: readonly string[], atMs: number, sinceMs: number): void {
    for (const k of keys) {
      // Re-inserted so Map order stays oldest first.
      this.at.delete(k);
      this.at.set(k, atMs);
    }
    if (this.at.size <= this.max) return;
    for (const [k, t] of this.at) if (t < sinceMs) this.at.delete(k);
    for (const k of this.at.keys()) {
      if (this.at.size <= this.max) break;
      this.at.delete(k);
    }
  }

  /**
   * Waits until no other call of this process is queuing any of `keys`, then holds them until the
   * returned release is called. Without it two notices of one key (an alert flapping faster than
   * the outbox is read and written) both read "not queued yet" and both queue a row; held, the
   * second reads after the first has written (or failed, and then it queues its own).
   */
  async hold(keys: readonly string[]): Promise<() => void> {
    for (;;) {
      const busy = keys.map((k) => this.queuing.get(k)).filter((p) => p !== undefined);
      if (busy.length === 0) break;
      await Promise.all(busy);
    }
    let done!: () => void;
    const held = new Promise<void>((resolve) => (done = resolve));
    for (const k of keys) this.queuing.set(k, held);
    return () => {
      for (const k of keys) if (this.queuing.get(k) === held) this.queuing.delete(k);
      done();
    };
  }
}
