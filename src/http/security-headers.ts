/**
 * Security headers on every answer (helmet's, computed once), with a Content-Security-Policy the web
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

/** The security headers every answer carries: lower-case name to value. */
export type SecurityHeaders = Readonly<Record<string, string>>;

/**
 * Helmet's headers, computed once. The policy is the same for every request (no nonce, nothing
 * read from the request), so helmet's middleware runs a single time, at start, on a stand-in
 * response that records what it sets; each request then gets that one frozen set. Running helmet
 * per request set twelve headers one `setHeader` call at a time (each validated and stored in
 * the response's header map), a measurable share of a small authenticated GET.
 */
export function buildSecurityHeaders(): SecurityHeaders {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    // The console loads nothing cross-origin; COEP would only get in the way of wallpapers.
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err ?? null;
  });
  if (failure) throw failure;
  // Helmet is synchronous; an empty set would mean it changed that, and every answer would go out bare.
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  return Object.freeze(headers);
}

/**
 * Every answer carries the headers, refusals included: the hook must be the first `onRequest`
 * hook, registered before authentication, because a hook that throws (401, 403) skips the ones
 * after it. They go on the reply (not the raw response), so Fastify writes them with the rest in
 * one `writeHead`, and a route that sets its own policy (Swagger UI) overrides them. Router
 * errors, which answer before any hook, add them themselves.
 */
export function installSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
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
