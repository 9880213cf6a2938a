/**
 * The dedup keys this process queued, with when: a repeated alert (a server flapping around its
 * threshold) is recognised without reading the outbox again. It only ever answers "seen" for a key
 * whose row this process wrote inside the window; rows are pruned after days, not minutes, so the
 * outbox would answer the same. Anything else (a key from another process, an expired entry) is
 * left to the outbox read. Bounded: expired entries go first, then the oldest.
 */
export class DedupMemo {
  private readonly at = new Map<string, number>();

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
}
