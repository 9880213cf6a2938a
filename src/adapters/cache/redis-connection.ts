/**
 * One ioredis connection of the Redis cache (the command connection or the subscriber): its
 * errors logged at most once per interval (every reconnect attempt emits one), and a short wait
 * for a connection attempt under way, so an outage fails commands fast instead of stalling them.
 */
import type { Redis } from 'ioredis';
import type { CacheLogger } from './cache-helpers.js';

// Bound on how long a command waits for an in-flight connection attempt (startup,
// reconnect) before failing; anything longer would make an outage stall requests.
const CONNECT_WAIT_MS = 1_000;
const QUIT_TIMEOUT_MS = 1_000;
const ERROR_LOG_INTERVAL_MS = 30_000;

/** One ioredis connection plus its throttled error logging and connect-wait bookkeeping. */
export class Connection {
  private lastLogAt = 0;
  private suppressed = 0;
  private failing = false;
  private pendingAttempt: Promise<void> | null = null;

  constructor(
    readonly redis: Redis,
    private readonly role: 'command' | 'subscriber',
    private readonly logger?: CacheLogger,
  ) {
    // Without an 'error' listener ioredis' EventEmitter would throw and kill the process.
    redis.on('error', (err: Error) => this.onError(err));
    redis.on('ready', () => {
      if (this.failing) {
        this.logger?.info({ role, suppressedErrors: this.suppressed }, 'Redis connection restored');
      }
      this.failing = false;
      this.lastLogAt = 0;
      this.suppressed = 0;
    });
  }

  /**
   * Resolves once a connection attempt that is under way has finished (either way),
   * so commands issued right after start-up do not fail just because the socket is
   * still handshaking. While backing off between retries it resolves at once: fail fast.
   */
  settled(): Promise<void> {
    const { status } = this.redis;
    if (status !== 'connecting' && status !== 'connect') return Promise.resolve();
    this.pendingAttempt ??= new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const ev of ['ready', 'close', 'end']) this.redis.off(ev, done);
        this.pendingAttempt = null;
        resolve();
      };
      const timer = setTimeout(done, CONNECT_WAIT_MS);
      for (const ev of ['ready', 'close', 'end']) this.redis.on(ev, done);
    });
    return this.pendingAttempt;
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** QUIT when healthy; otherwise (or if QUIT hangs) drop the socket and stop retrying. */
  async shutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIT_TIMEOUT_MS)));
    if (this.ready) await Promise.race([this.redis.quit().catch(() => {}), timedOut]);
    clearTimeout(timer);
    // Harmless after a clean QUIT; otherwise it also cancels any pending reconnect timer.
    this.redis.disconnect();
  }

  private onError(err: Error): void {
    this.failing = true;
    const now = Date.now();
    // Every reconnect attempt emits an error; one line per interval is enough to alert.
    if (now - this.lastLogAt < ERROR_LOG_INTERVAL_MS) {
      this.suppressed++;
      return;
    }
    const fields = { role: this.role, err, suppressedErrors: this.suppressed };
    this.logger?.warn(fields, 'Redis connection error; retrying in the background');
    this.lastLogAt = now;
    this.suppressed = 0;
  }
}
