/**
 * What the logs may carry. Secrets never reach a log line: credential headers and body fields
 * are redacted, and request URLs are logged without their query string, because a query can
 * hold a token (`/ws/alerts?token=…` authenticates the live socket that way).
 */
import type { FastifyRequest } from 'fastify';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.password',
  '*.private_key',
  '*.encrypted_pw',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.refresh_token',
  '*.access_token',
];

/** The URL as it may be logged: the path only. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Fastify's request serializer, minus the query string. */
export function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: loggableUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function logOptions(level: string) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
  };
}
