/**
 * Typed domain errors. Services throw these; the single HTTP error mapper in
 * `src/http/error-handler.ts` turns them into `{ detail, code }` responses. The message is the
 * client-facing detail, so it must never carry secrets, stack traces or SQL. The code comes
 * from the catalogue in `error-codes.ts`: a throw site names a sharp one (`server_not_found`)
 * where a client may want to react to it, else each class's generic code is used.
 */
import { DecryptionError } from './crypto.js';
import type { ErrorCode } from './error-codes.js';

export class DomainError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly code: ErrorCode = 'bad_request',
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: a business-rule validation failure. */
export class BadRequestError extends DomainError {
  constructor(message: string, code: ErrorCode = 'bad_request') {
    super(400, message, {}, code);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Not authenticated', code: ErrorCode = 'unauthorized') {
    super(401, message, {}, code);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Forbidden', code: ErrorCode = 'forbidden') {
    super(403, message, {}, code);
  }
}

/** 403: a path outside staging or a forbidden system path. */
export class ForbiddenPathError extends ForbiddenError {
  constructor(message: string, code: ErrorCode = 'forbidden') {
    super(message, code);
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found', code: ErrorCode = 'not_found') {
    super(404, message, {}, code);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code: ErrorCode = 'conflict') {
    super(409, message, {}, code);
  }
}

/** 422 raised by a service (e.g. an invalid date filter), shaped like schema failures. */
export class UnprocessableError extends DomainError {
  constructor(
    message: string,
    readonly errors: Array<{ path: string; message: string }> = [],
  ) {
    super(422, message, {}, 'validation_failed');
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(message: string, retryAfterSeconds: number, code: ErrorCode = 'rate_limited') {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) }, code);
  }
}

/** 500 with a deliberate, safe message (local I/O failure, decryption failure, ...). */
export class InternalError extends DomainError {
  constructor(message: string, code: ErrorCode = 'internal_error') {
    super(500, message, {}, code);
  }
}

/** 503: a store the request needs (database, cache) cannot be reached now; the request may be repeated. */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string, code: ErrorCode = 'service_unavailable') {
    super(503, message, { 'retry-after': '5' }, code);
  }
}

/** 507: this host's disk (the staging area, the data directory) is full or over its quota. */
export class InsufficientStorageError extends DomainError {
  constructor(message = 'The local disk is full: free space in the staging area (delete old staging directories) and retry') {
    super(507, message, {}, 'insufficient_storage');
  }
}

/** 502: an upstream (SSH connection, bot API) failed. */
export class BadGatewayError extends DomainError {
  constructor(message: string, code: ErrorCode = 'bad_gateway') {
    super(502, message, {}, code);
  }
}

/** A remote command exited non-zero; routes decide how it maps (400 for file-ops, 200+error for browse). */
export class RemoteExecError extends DomainError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(400, message, {}, 'remote_command_failed');
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

/** Errno codes that mean "no room left": out of blocks or inodes (ENOSPC), or over a quota (EDQUOT). */
const STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT']);

export function isStorageFull(err: unknown): boolean {
  return STORAGE_FULL.has(errCode(err) ?? '');
}

/**
 * The one mapping of a failed local file operation to a domain error: a full disk or quota is a
 * 507 the operator can act on (free space, retry), anything else the caller's 500 with `message`.
 * Remote (SFTP, rsync) failures never come through here: they carry no local errno.
 */
export function localIoError(err: unknown, message: string, code: ErrorCode = 'io_error'): DomainError {
  if (err instanceof DomainError) return err;
  if (isStorageFull(err)) return new InsufficientStorageError();
  return new InternalError(message, code);
}

/**
 * A name or path beyond NAME_MAX/PATH_MAX (ENAMETOOLONG) comes from the caller's input, never
 * from a fault of the service: rethrown as a 400 `path_too_long`, anything else left to the caller.
 */
export function throwIfTooLong(err: unknown): void {
  if (errCode(err) === 'ENAMETOOLONG') throw new BadRequestError('Path is too long', 'path_too_long');
}

/**
 * Errors whose message is written for clients and carries no secret: our domain errors and a
 * credential that no longer decrypts. Anything else is logged and replaced by a generic text.
 */
export function isClientSafe(err: unknown): err is DomainError | DecryptionError {
  return err instanceof DomainError || err instanceof DecryptionError;
}
