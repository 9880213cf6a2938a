/**
 * Typed domain errors. Services throw these; the single HTTP error mapper in
 * `src/app-errors.ts` turns them into `{ detail }` responses. The message is the
 * client-facing detail, so it must never carry secrets, stack traces or SQL.
 */
import { DecryptionError } from './crypto.js';

export class DomainError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: a business-rule validation failure. */
export class BadRequestError extends DomainError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Not authenticated') {
    super(401, message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}

/** 403: a path outside staging or a forbidden system path. */
export class ForbiddenPathError extends ForbiddenError {}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 422 raised by a service (e.g. an invalid date filter), shaped like schema failures. */
export class UnprocessableError extends DomainError {
  constructor(
    message: string,
    readonly errors: Array<{ path: string; message: string }> = [],
  ) {
    super(422, message);
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 500 with a deliberate, safe message (local I/O failure, decryption failure, ...). */
export class InternalError extends DomainError {
  constructor(message: string) {
    super(500, message);
  }
}

/** 502: an upstream (SSH connection, bot API) failed. */
export class BadGatewayError extends DomainError {
  constructor(message: string) {
    super(502, message);
  }
}

/** A remote command exited non-zero; routes decide how it maps (400 for file-ops, 200+error for browse). */
export class RemoteExecError extends DomainError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(400, message);
  }
}

/** The message of an unknown thrown value, for a log line or an error detail. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The errno code (`ENOENT`, `EACCES`…) of an unknown thrown value, if it has one. */
export function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/**
 * Errors whose message is written for clients and carries no secret: our domain errors and a
 * credential that no longer decrypts. Anything else is logged and replaced by a generic text.
 */
export function isClientSafe(err: unknown): err is DomainError | DecryptionError {
  return err instanceof DomainError || err instanceof DecryptionError;
}
