/**
 * The one mapper from errors to HTTP: every answer is `{ detail, code }` with a code from the
 * catalogue (`core/error-codes.ts`). Domain errors keep their status, message and code, schema
 * failures become 422 `{detail, code, errors}`, Fastify's own client errors keep their 4xx, a
 * value the database refuses (out of range, bytes it cannot store) is a 400, a database that cannot
 * be reached (connection refused or cut) is a 503 `database_unavailable`, a full local disk
 * (ENOSPC, EDQUOT) is a 507, and anything else
 * is a bare 500 — the stack and message stay in the log.
 */
import type { ConsoleFallback } from './console-static.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, InsufficientStorageError, isStorageFull, UnprocessableError } from '../core/errors.js';
import type { ErrorCode } from '../core/error-codes.js';
import { DecryptionError } from '../core/crypto.js';
import { isValueRejected } from '../db/errors.js';
import { isTransientDbError } from '../db/transient.js';

/** Seconds a client is told to wait when the database is away: a PostgreSQL restart takes a few. */
export const DB_UNAVAILABLE_RETRY_AFTER_S = 5;

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function issuePath(context: string | undefined, v: ValidationIssue): string {
  const parts = [context ?? 'body', ...(v.instancePath ?? '').split('/').filter(Boolean)];
  const missing = v.params?.missingProperty;
  if (typeof missing === 'string') parts.push(missing);
  return parts.join('.');
}

const CLIENT_MESSAGES: Record<string, [number, string, ErrorCode]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large', 'body_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type', 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Body is not valid JSON', 'invalid_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Body cannot be empty when content-type is application/json', 'invalid_json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body', 'bad_request'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'The request is not multipart', 'unsupported_media_type'],
  FST_REQ_FILE_TOO_LARGE: [400, 'Uploaded file is too large', 'body_too_large'],
  FST_PARTS_LIMIT: [413, 'Too many multipart parts', 'body_too_large'],
  FST_FILES_LIMIT: [413, 'Too many files', 'body_too_large'],
  FST_FIELDS_LIMIT: [413, 'Too many fields', 'body_too_large'],
};

/** The generic code of a status no throw site named: a client can still tell classes apart. */
export function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'body_too_large',
    414: 'invalid_url',
    415: 'unsupported_media_type',
    422: 'validation_failed',
    429: 'rate_limited',
    502: 'bad_gateway',
    507: 'insufficient_storage',
  };
  return byStatus[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

/** `fallback` may answer a request no route took (the web console's pages) before the JSON 404. */
export function installErrorHandling(app: FastifyInstance, fallback: ConsoleFallback | null = null): void {
  app.setNotFoundHandler((req, reply) => {
    if (fallback?.(req, reply)) return;
    reply.code(404).send({ detail: `Not found: ${req.method} ${req.url.split('?')[0].slice(0, 200)}`, code: 'route_not_found' });
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof UnprocessableError) {
      return reply.code(422).send({ detail: err.message, code: err.code, errors: err.errors });
    }
    if (err instanceof DomainError) {
      if (err.statusCode >= 500) req.log.warn({ err: err.message, status: err.statusCode }, 'request failed');
      return reply.code(err.statusCode).headers(err.headers).send({ detail: err.message, code: err.code });
    }
    if (err instanceof DecryptionError) {
      return reply.code(500).send({ detail: err.message, code: 'decryption_failed' });
    }
    if (err.validation) {
      const errors = (err.validation as ValidationIssue[]).map((v) => ({
        path: issuePath(err.validationContext, v),
        message: v.message ?? 'is invalid',
      }));
      const first = errors[0];
      return reply.code(422).send({
        detail: first ? `Validation failed: ${first.path} ${first.message}` : 'Validation failed',
        code: 'validation_failed',
        errors,
      });
    }
    if (isValueRejected(err)) {
      // The database's own message quotes the value and the SQL; it stays in the log.
      req.log.warn({ err }, 'value refused by the database');
      return reply.code(400).send({ detail: 'A value in the request cannot be stored or looked up', code: 'value_out_of_range' });
    }
    if (isStorageFull(err)) {
      // A raw ENOSPC/EDQUOT no service wrapped: still the operator's 507, not an unexplained 500.
      req.log.warn({ err: err.message }, 'local disk full');
      const full = new InsufficientStorageError();
      return reply.code(full.statusCode).send({ detail: full.message, code: full.code });
    }
    if (isTransientDbError(err)) {
      // "Not now" rather than "no": the request did not happen and may be repeated as it is (an
      // agent resends its heartbeat). A 500 would read as a bug, and its stack stays in the log.
      req.log.warn({ err: err.message }, 'database unavailable');
      return reply
        .code(503)
        .header('Retry-After', String(DB_UNAVAILABLE_RETRY_AFTER_S))
        .send({ detail: 'The database is unavailable; retry shortly', code: 'database_unavailable' });
    }
    const known = err.code ? CLIENT_MESSAGES[err.code] : undefined;
    if (known) return reply.code(known[0]).send({ detail: known[1], code: known[2] });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: String(err.message || 'Bad request').slice(0, 300), code: codeForStatus(status) });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error', code: 'internal_error' });
  });
}
