/**
 * What the logs may carry, and how loud a request is. Secrets never reach a log line: credential headers and body fields
 * are redacted, and request URLs are logged without their query string, because a query can
 * hold a token (`/ws/alerts?token=…` authenticates the live socket that way).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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

/**
 * How loud a finished request is. One person clicking produces thousands of successful requests
 * (heartbeats, polling, static files): those are `debug`, so `info` shows only what an operator
 * acts on. A client error (4xx) is `info`: a refused login or a missing record says something
 * about the caller. A server error (5xx) is `error`. Fastify's own pair of lines per request
 * (incoming / completed, both at `info`) becomes this one line (see RequestLogController).
 */
export function requestLogLevel(statusCode: number): 'debug' | 'info' | 'error' {
  if (statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'info';
  return 'debug';
}

/**
 * Fastify's request lines, re-levelled: no "incoming request" line (except a live socket's
 * upgrade, which is hijacked and never "completes"), and one "request completed" line at the
 * level of its outcome. `request.log` honours a route's own `logLevel` (the agent heartbeat logs
 * only warnings).
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (request.headers.upgrade?.toLowerCase() === 'websocket') request.log.debug({ req: request }, 'websocket upgrade');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const level = error ? 'error' : requestLogLevel(reply.statusCode);
    request.log[level]({ req: request, res: reply, err: error ?? undefined, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  }
}
