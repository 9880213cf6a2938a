/**
 * Database errors that say "not now" rather than "no": the connection dropped or was refused
 * (PostgreSQL restarting, a failover, a network blip) or SQLite is busy. Work that must outlive a
 * short outage (a push whose rsyncs do not need the database) waits for the database with
 * `untilDatabaseAnswers` instead of failing; any other error is thrown at once.
 */
import type { Logger } from '../core/logger.js';

/** SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention: shutdown, restart). */
const TRANSIENT_SQLSTATE = /^(08\d{3}|57P0[1-3])$/;
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN', 'SQLITE_BUSY']);
const TRANSIENT_MESSAGE = /Connection terminated|connection (is )?closed|Client has encountered a connection error|timeout exceeded when trying to connect/i;

export function isTransientDbError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_ERRNO.has(code))) return true;
  return TRANSIENT_MESSAGE.test(err.message);
}

export interface WaitOptions {
  /** Give up (throw the last error) after this long. */
  deadlineMs: number;
  log: Logger;
  /** For the log line: what is waiting. */
  what: string;
  signal?: AbortSignal;
}

/** Runs `fn`, again after a growing pause (0.1 s to 2 s) while it fails transiently, until the deadline. */
export async function untilDatabaseAnswers<T>(fn: () => Promise<T>, o: WaitOptions): Promise<T> {
  const giveUpAt = Date.now() + o.deadlineMs;
  let pause = 100;
  let warned = false;
  for (;;) {
    try {
      const out = await fn();
      if (warned) o.log.info({ what: o.what }, 'the database answers again');
      return out;
    } catch (err) {
      if (!isTransientDbError(err) || Date.now() + pause > giveUpAt || o.signal?.aborted) throw err;
      if (!warned) o.log.warn({ err, what: o.what }, 'the database is unreachable; waiting for it');
      warned = true;
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(2_000, pause * 2);
    }
  }
}
