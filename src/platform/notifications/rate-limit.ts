/**
 * Per-destination token buckets: each destination may send `perMinute` messages in a burst and
 * then one every 60 s / perMinute. A message over the limit waits for its token (the caller
 * defers it); nothing is ever dropped. Buckets live in the delivering process.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number) {}

  /** 0 when a token was taken now, else the milliseconds until one is available. */
  take(key: string, nowMs: number): number {
    const perMs = this.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: nowMs };
    b.tokens = Math.min(this.perMinute, b.tokens + Math.max(0, nowMs - b.at) * perMs);
    b.at = nowMs;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / perMs);
  }
}
