/**
 * Security headers on every answer, computed once by helmet, in two sets chosen by the path:
 *
 * - Answers under `/api/` (JSON, CSV, the agent's install script: nothing a browser renders as a
 *   page) get the short set the OWASP REST Security Cheat Sheet asks of an API: a policy that
 *   allows nothing (`default-src 'none'; frame-ancestors 'none'`, so even a body a browser were
 *   tricked into rendering as HTML or SVG could load and run nothing), HSTS, nosniff, no framing
 *   (X-Frame-Options DENY, as its frame-ancestors says), same-origin resource policy, no referrer.
 *   Helmet's other headers only act on a document the browser renders (DNS prefetch, IE's download
 *   prompt, the XSS auditor, origin-keyed agent clusters, the opener policy, Flash/PDF policy files).
 * - Everything else (the console's HTML and files, its not-found fallback, /docs, /health, the live
 *   socket) gets helmet's full set, with a Content-Security-Policy the web console lives under:
 *   scripts only from the service itself (the console's build has no inline script), styles also
 *   inline (the component library sets style attributes), images also from data:/blob: URLs,
 *   connections (fetch and the live WebSocket) to the service itself, no framing.
 *
 * No `upgrade-insecure-requests`: the service is often reached over plain HTTP on a private
 * address, where upgrading would break every request. `/docs` (Swagger UI) sets its own policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** The policy of every answer under /api/: nothing may load, run or frame it. */
export const API_CSP = {
  defaultSrc: ["'none'"],
  frameAncestors: ["'none'"],
};

/** Helmet's options for the full set (everything outside /api/). */
export const FULL_HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
  // The console loads nothing cross-origin; COEP would only get in the way of wallpapers.
  crossOriginEmbedderPolicy: false,
} as const;

/** Helmet's options for the API set: the headers that protect a JSON answer, none of the page-only ones. */
export const API_HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
} as const;

/** The security headers an answer carries: lower-case name to value. */
export type SecurityHeaders = Readonly<Record<string, string>>;

/** Both sets, frozen: `api` for paths under /api/, `full` for every other answer. */
export interface SecurityHeaderSets {
  readonly api: SecurityHeaders;
  readonly full: SecurityHeaders;
}

/**
 * Helmet's headers, computed once. The policy is the same for every request (no nonce, nothing
 * read from the request), so helmet's middleware runs a single time, at start, on a stand-in
 * response that records what it sets; each request then gets that one frozen set. Running helmet
 * per request set twelve headers one `setHeader` call at a time (each validated and stored in
 * the response's header map), a measurable share of a small authenticated GET.
 */
export function buildSecurityHeaders(options: Parameters<typeof helmet>[0] = FULL_HELMET_OPTIONS): SecurityHeaders {
  const middleware = helmet(options);
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

/** Both sets, computed once at start. */
export function buildSecurityHeaderSets(): SecurityHeaderSets {
  return Object.freeze({ api: buildSecurityHeaders(API_HELMET_OPTIONS), full: buildSecurityHeaders(FULL_HELMET_OPTIONS) });
}

/**
 * The set for a request's raw URL: one prefix test. The raw URL, not the route, so a not-found
 * path and a router error are decided the same way as a matched one. A URL under /api/ that some
 * fallback answered with a page would get the stricter set (nothing loads), never a weaker one.
 */
export function securityHeadersFor(sets: SecurityHeaderSets, url: string): SecurityHeaders {
  return url.startsWith('/api/') ? sets.api : sets.full;
}

/** Puts the request's set on the reply (the router-error path, which runs no hook, calls it too). */
export function applySecurityHeaders(sets: SecurityHeaderSets, req: FastifyRequest, reply: FastifyReply): void {
  void reply.headers(securityHeadersFor(sets, req.url));
}

/**
 * Every answer carries the headers, refusals included: the hook must be the first `onRequest`
 * hook, registered before authentication, because a hook that throws (401, 403) skips the ones
 * after it. They go on the reply (not the raw response), so Fastify writes them with the rest in
 * one `writeHead`, and a route that sets its own policy (Swagger UI) overrides them. Router
 * errors, which answer before any hook, add them themselves.
 */
export function installSecurityHeaders(app: FastifyInstance, sets: SecurityHeaderSets): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(securityHeadersFor(sets, req.url));
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
