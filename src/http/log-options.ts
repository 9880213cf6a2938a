/**
 * What the logs may carry, and how loud a request is. Secrets never reach a log line: credential headers and body fields
 * are redacted, and request URLs are logged without their query string, because a query can
 * hold a token (`/ws/alerts?token=…` authenticates the live socket that way).
 */
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type pino from 'pino';

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
    // Most requests succeed, at `debug`, below production's level: the line's object is not built.
    if (level === 'debug' && (request.log as Partial<Pick<pino.Logger, 'isLevelEnabled'>>).isLevelEnabled?.('debug') === false) return;
    request.log[level]({ req: request, res: reply, err: error ?? undefined, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  }
}

/**
 * A request's child logger that becomes a real pino child only when the request logs a line its
 * level lets through. At `info` a successful request logs nothing, yet building its child (the
 * `reqId` binding serialized through the redaction) was ~1 µs of every request. A line that is
 * logged goes through the same child pino would have made: same bindings, same level, same
 * redaction. Anything beyond the level calls (`child`, `level`, `bindings`...) makes the child too.
 */
class LazyChildLogger {
  private real: pino.Logger | null = null;
  private readonly threshold: number;

  constructor(
    private readonly parent: pino.Logger,
    private readonly childBindings: pino.Bindings,
    private readonly opts: pino.ChildLoggerOptions,
  ) {
    // The parent's number as is (its `level` getter would name it, only to be looked up again).
    this.threshold = opts.level ? (parent.levels.values[opts.level] ?? 0) : parent.levelVal;
  }

  private get target(): pino.Logger {
    this.real ??= this.parent.child(this.childBindings, this.opts);
    return this.real;
  }

  private log(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (this.parent.levels.values[method] < this.threshold) return;
    (this.target[method] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.log('error', args);
  }

  warn(...args: unknown[]): void {
    this.log('warn', args);
  }

  info(...args: unknown[]): void {
    this.log('info', args);
  }

  debug(...args: unknown[]): void {
    this.log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.log('trace', args);
  }

  silent(): void {}

  get level(): string {
    return this.target.level;
  }

  set level(level: string) {
    this.target.level = level;
  }

  child(bindings: pino.Bindings, opts?: pino.ChildLoggerOptions): pino.Logger {
    return this.target.child(bindings, opts);
  }

  bindings(): pino.Bindings {
    return this.target.bindings();
  }

  /** As pino answers it for the child (its level, or the parent's), without making the child. */
  isLevelEnabled(level: string): boolean {
    const value = this.parent.levels.values[level];
    return value !== undefined && value >= this.threshold;
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made lazily (see LazyChildLogger). */
export function lazyChildLoggerFactory(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: pino.Bindings,
  opts: pino.ChildLoggerOptions,
): FastifyBaseLogger {
  // Without a pino logger (logging off: Fastify's null logger) there is nothing to save.
  if (!(logger as Partial<pino.Logger>).levels) return logger.child(bindings, opts);
  return new LazyChildLogger(logger as pino.Logger, bindings, opts) as unknown as FastifyBaseLogger;
}
