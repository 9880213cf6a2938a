/**
 * The delivery loop: claims due outbox rows with a lease, sends each through its destination's
 * notifier and records the outcome. A retryable failure is tried again after a backoff (3 tries
 * in all by default: now, +5 s, +30 s); a non-retryable one fails at once. Each destination is
 * rate-limited (excess waits its turn, never dropped). A destination whose attempts fail
 * `failingAfter` times in a row is reported once as failing, and once as recovered when it
 * delivers again. Runs in the process that owns background work: kicked right after an enqueue
 * in that process, and polling for rows enqueued elsewhere and for retries coming due.
 */
import type { Notifier, NotificationMessage } from '../../adapters/notifiers/notifier.js';
import { NotifierError } from '../../adapters/notifiers/notifier.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { OutboxRepository } from './outbox.repository.js';
import { RateLimiter } from './rate-limit.js';
import type { NotificationOutboxRow } from '../../db/types.js';

export interface Destination {
  notifier: Notifier;
  /** Shown in a channel-failing notice. */
  name: string;
}

export interface DeliveryOptions {
  /** Delays before the 2nd, 3rd… attempt; attempts in all = length + 1. */
  backoffMs: number[];
  leaseMs: number;
  /** The longest one send may take (the channels' 10 s timeout, with room for its writes). */
  sendBoundMs: number;
  batchSize: number;
  pollMs: number;
  ratePerMinute: number;
  failingAfter: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  backoffMs: [5_000, 30_000],
  // One send is bounded by its channel's timeout (10 s), far inside the lease; a destination's
  // chain of several sends renews the lease of the rows it still holds when it runs short.
  leaseMs: 60_000,
  sendBoundMs: 15_000,
  batchSize: 50,
  pollMs: 1_000,
  ratePerMinute: 20,
  failingAfter: 3,
};

export interface OutboxDeliveryDeps {
  repo: OutboxRepository;
  /** The destination's notifier now, or null when it no longer exists (deleted, disabled, unconfigured). */
  resolve(destination: string): Promise<Destination | null>;
  /** A destination started failing (up false) or delivers again (up true). */
  onHealth(destination: string, name: string, up: boolean, error: string | null): Promise<unknown>;
  owner: string;
  now: () => number;
  log: Logger;
  metrics?: Pick<Metrics, 'notificationDelivery'>;
  options?: Partial<DeliveryOptions>;
}

export class OutboxDelivery {
  readonly o: DeliveryOptions;
  private readonly limiter: RateLimiter;
  private readonly failures = new Map<string, number>();
  private readonly failing = new Set<string>();
  private running: Promise<void> | null = null;
  /** Destinations whose claimed rows are being sent, each with its send chain. */
  private readonly sending = new Map<string, Promise<void>>();
  /**
   * Sending destinations that may have more due rows than they took: rows queued here meanwhile,
   * or a claim that hit the batch size. Each looks for its next rows at once when done; the others
   * leave rows queued elsewhere and retries coming due to the poll, instead of one claim query per
   * finished destination.
   */
  private readonly recheck = new Set<string>();
  private wanted = false;
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(private readonly d: OutboxDeliveryDeps) {
    this.o = { ...DEFAULT_DELIVERY, ...d.options };
    this.limiter = new RateLimiter(this.o.ratePerMinute);
  }

  start(): void {
    this.stopping = false;
    this.timer = setInterval(() => this.kick(), this.o.pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.wanted = false;
    // Rows not yet attempted go back at once (not after their lease) for the next process.
    this.stopping = true;
    await this.running;
    await Promise.all(this.sending.values());
  }

  /** Runs the loop now (or right after the run in progress); never overlaps itself in this process. */
  kick(): void {
    this.wanted = true;
    if (this.running !== null) return;
    this.running = (async () => {
      while (this.wanted) {
        this.wanted = false;
        try {
          if ((await this.claimAndStart()) >= this.o.batchSize) this.wanted = true;
        } catch (err) {
          this.d.log.warn({ err: errorMessage(err) }, 'notification delivery round failed');
        }
      }
    })().finally(() => {
      this.running = null;
    });
  }

  /**
   * Wakes the loop for rows just queued for `destinations`. A destination still sending takes its
   * next rows when its current ones are done (it kicks the loop then), so a round now is only
   * worth its claim query when one of them is free: with every channel slow, queuing adds no
   * claim per notification.
   */
  wake(destinations: readonly string[]): void {
    let free = false;
    for (const d of destinations) {
      if (this.sending.has(d)) this.recheck.add(d);
      else free = true;
    }
    if (free) this.kick();
  }

  /** Resolves once no round is running and no destination is sending (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running !== null || this.sending.size > 0) {
      await this.running;
      await Promise.all(this.sending.values());
    }
  }

  /** One round, waited for to the end: claims due rows and delivers them; answers how many it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claimAndStart();
    await Promise.all(this.sending.values());
    return claimed;
  }

  /**
   * Claims due rows of every destination not already sending and starts each destination's
   * sends, without waiting for them: a slow or failing channel (up to its 10 s timeout per
   * message) never holds up the others' next messages. A destination's rows go out one at a
   * time, in order; its next rows are claimed once it is done (at once when it may have more: `recheck`).
   */
  private async claimAndStart(): Promise<number> {
    const now = this.d.now();
    const busy = [...this.sending.keys()];
    const rows = await this.d.repo.claimDue(this.d.owner, iso(now), iso(now + this.o.leaseMs), this.o.batchSize, busy);
    const byDestination = new Map<string, NotificationOutboxRow[]>();
    for (const r of rows) byDestination.set(r.destination, [...(byDestination.get(r.destination) ?? []), r]);
    for (const [destination, list] of byDestination) {
      if (rows.length >= this.o.batchSize) this.recheck.add(destination);
      const sending = this.sendAll(destination, list, now + this.o.leaseMs).finally(() => {
        this.sending.delete(destination);
        // The loop (when started) looks for this destination's next rows at once.
        if (this.recheck.delete(destination) && this.timer && !this.stopping) this.kick();
      });
      this.sending.set(destination, sending);
    }
    return rows.length;
  }

  /**
   * Sends a destination's rows one after another. They were leased until `leasedUntil`; a send
   * that could end past it first renews the lease of every row still to go (one write), and a row
   * whose lease another process took meanwhile (this one stalled past it) is left to that process.
   */
  private async sendAll(destination: string, list: NotificationOutboxRow[], leasedUntil: number): Promise<void> {
    const target = await this.d.resolve(destination).catch((err: unknown) => {
      this.d.log.warn({ destination, err: errorMessage(err) }, 'notification destination could not be read');
      return undefined;
    });
    let deferred = 0;
    let held: Set<number> | null = null;
    for (const [i, row] of list.entries()) {
      try {
        if (this.d.now() + this.o.sendBoundMs > leasedUntil) {
          const now = this.d.now();
          held = new Set(await this.d.repo.renew(list.slice(i).map((r) => r.id), this.d.owner, iso(now + this.o.leaseMs)));
          leasedUntil = now + this.o.leaseMs;
        }
        if (held && !held.has(row.id)) continue;
        if (this.stopping) await this.d.repo.later(row.id, this.d.owner, row.next_attempt_at, row.attempts, row.last_error);
        else if (!(await this.deliver(row, target, deferred))) deferred++;
      } catch (err) {
        // The row keeps its lease and is tried again once the lease runs out.
        this.d.log.warn({ destination, err: errorMessage(err) }, 'notification delivery could not be recorded');
      }
    }
  }

  /**
   * One attempt; false when the rate limit deferred the row (`deferred` rows of this destination
   * already were this round: each waits one more token interval, so deferred rows come due one
   * at a time instead of all being claimed and deferred again together).
   */
  private async deliver(row: NotificationOutboxRow, target: Destination | null | undefined, deferred: number): Promise<boolean> {
    const attempts = row.attempts + 1;
    if (target === undefined) {
      // The destination could not be looked up (database trouble): try again later, uncounted.
      await this.d.repo.later(row.id, this.d.owner, iso(this.d.now() + this.o.pollMs * 5), row.attempts, row.last_error);
      return true;
    }
    if (target === null) {
      this.d.metrics?.notificationDelivery(row.channel_type, 'failed');
      await this.d.repo.failed(row.id, this.d.owner, attempts, 'destination no longer exists or is not configured');
      return true;
    }
    const wait = this.limiter.take(row.destination, this.d.now());
    if (wait > 0) {
      this.d.metrics?.notificationDelivery(row.channel_type, 'deferred');
      const spacing = Math.ceil(60_000 / this.o.ratePerMinute) * deferred;
      await this.d.repo.later(row.id, this.d.owner, iso(this.d.now() + wait + spacing), row.attempts, row.last_error);
      return false;
    }
    try {
      await target.notifier.send(JSON.parse(row.payload) as NotificationMessage);
    } catch (err) {
      const error = err instanceof NotifierError ? err.description : errorMessage(err);
      const retryable = !(err instanceof NotifierError) || err.retryable;
      this.d.log.warn({ destination: row.destination, kind: row.event_kind, attempt: attempts, err: error }, 'notification delivery failed');
      await this.health(row.destination, target.name, false, error);
      if (retryable && attempts <= this.o.backoffMs.length) {
        this.d.metrics?.notificationDelivery(row.channel_type, 'retry');
        await this.d.repo.later(row.id, this.d.owner, iso(this.d.now() + this.o.backoffMs[attempts - 1]), attempts, error);
        return true;
      }
      this.d.metrics?.notificationDelivery(row.channel_type, 'failed');
      await this.d.repo.failed(row.id, this.d.owner, attempts, error);
      return true;
    }
    this.d.metrics?.notificationDelivery(row.channel_type, 'delivered');
    await this.health(row.destination, target.name, true, null);
    await this.d.repo.delivered(row.id, this.d.owner, iso(this.d.now()), attempts);
    return true;
  }

  /** Counts a destination's outcome; the notice is queued within the round (it never rejects). */
  private async health(destination: string, name: string, ok: boolean, error: string | null): Promise<void> {
    if (ok) {
      this.failures.delete(destination);
      if (this.failing.delete(destination)) await this.d.onHealth(destination, name, true, null);
      return;
    }
    const n = (this.failures.get(destination) ?? 0) + 1;
    this.failures.set(destination, n);
    if (n >= this.o.failingAfter && !this.failing.has(destination)) {
      this.failing.add(destination);
      await this.d.onHealth(destination, name, false, error);
    }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
