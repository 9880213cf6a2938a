/**
 * Idempotency keys for requests that start work (a push, a schedule, a retry, a script run). A
 * client sends `Idempotency-Key` (1 to 128 visible ASCII characters, a fresh one per user action);
 * the same caller repeating the key within ten minutes gets the first request's answer again
 * (same status, same body) and nothing starts twice. The same key with another request (route or
 * body) is refused, as is a key whose first request is still being answered after a short wait.
 * Only successful answers are kept: after an error the key is free, so the client may retry.
 * The keys are rows, so racing requests collide in the database whichever worker serves them.
 */
import { createHash } from 'node:crypto';
import { BadRequestError, ConflictError } from '../../core/errors.js';
import type { IdempotencyRepository } from './idempotency.repository.js';

export const IDEMPOTENCY_TTL_MS = 10 * 60_000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;
/** How long a repeat waits for the first request's answer before it is told to try later. */
export const IDEMPOTENCY_WAIT_MS = 30_000;
const POLL_MS = 100;

export interface IdempotentRequest {
  /** Who is calling: the admin's username, or `api`; keys of different callers never meet. */
  scope: string;
  key: unknown;
  /** Route and body, as sent. */
  method: string;
  route: string;
  params: unknown;
  body: unknown;
}

export type IdempotencyOutcome = { kind: 'first'; scope: string; key: string } | { kind: 'replay'; statusCode: number; response: string };

export class IdempotencyService {
  constructor(private readonly d: { repo: IdempotencyRepository; now?: () => number }) {}

  /** A valid key, or a 400 `idempotency_key_invalid`. */
  static parseKey(raw: unknown): string {
    if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) {
      throw new BadRequestError('Idempotency-Key must be 1 to 128 visible ASCII characters', 'idempotency_key_invalid');
    }
    return raw;
  }

  /** Claims the key for this request, or returns the answer the first request with it got. */
  async begin(r: IdempotentRequest): Promise<IdempotencyOutcome> {
    const key = IdempotencyService.parseKey(r.key);
    const fingerprint = createHash('sha256').update(JSON.stringify([r.method, r.route, r.params ?? null, r.body ?? null])).digest('hex');
    const now = this.now();
    await this.d.repo.deleteExpired(new Date(now).toISOString());
    const inserted = await this.d.repo.insert({
      scope: r.scope,
      idem_key: key,
      fingerprint,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + IDEMPOTENCY_TTL_MS).toISOString(),
    });
    if (inserted) return { kind: 'first', scope: r.scope, key };

    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const row = await this.d.repo.get(r.scope, key);
      // The first request failed meanwhile (its key was freed): this one is a first request again.
      if (!row) return this.begin(r);
      if (row.fingerprint !== fingerprint) {
        throw new ConflictError('This Idempotency-Key was already used for a different request', 'idempotency_key_reused');
      }
      if (row.status_code !== null && row.response !== null) return { kind: 'replay', statusCode: Number(row.status_code), response: row.response };
      if (Date.now() >= deadline) {
        throw new ConflictError('A request with this Idempotency-Key is still in progress; ask again later', 'idempotency_key_in_progress');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Keeps a successful answer for repeats; an error answer frees the key instead. */
  async finish(scope: string, key: string, statusCode: number, response: string): Promise<void> {
    if (statusCode >= 200 && statusCode < 300) await this.d.repo.complete(scope, key, statusCode, response);
    else await this.d.repo.delete(scope, key);
  }

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }
}
