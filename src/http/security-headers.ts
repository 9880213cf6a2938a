/**
 * Security headers on every answer (helmet), with a Content-Security-Policy the web
 * console lives under: scripts only from the service itself (the console's build has no inline
 * script), styles also inline (the component library sets style attributes), images also from
 * data:/blob: URLs, connections (fetch and the live WebSocket) to the service itself, no framing.
 * No `upgrade-insecure-requests`: the service is often reached over plain HTTP on a private
 * address, where upgrading would break every request. `/docs` (Swagger UI) sets its own policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** Sets the security headers on a raw response (synchronously; `next` is called at once). */
export type SecurityHeaders = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Helmet's middleware, built once and run on each request's raw response. (@fastify/helmet
 * rebuilds it, parsing every directive, on every request: 5% of the CPU of an authenticated GET.)
 */
export function buildSecurityHeaders(): SecurityHeaders {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    // The console loads nothing cross-origin; COEP would only get in the way of wallpapers.
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Every answer carries the headers, refusals included: the hook must be the first `onRequest`
 * hook, registered before authentication, because a hook that throws (401, 403) skips the ones
 * after it. Router errors, which answer before any hook, call `apply` themselves.
 */
export function installSecurityHeaders(app: FastifyInstance, apply: SecurityHeaders): void {
  app.addHook('onRequest', (req, reply, done) => {
    apply(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}

/** Swagger UI's own policy (it needs its inline bootstrap script), minus the upgrade directive. */
export function docsCsp(header: string | number | string[]): string {
  return String(header)
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.startsWith('upgrade-insecure-requests'))
    .join('; ');
}
