/** Request decorations shared by every module: the acting admin and the caller address. */
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.js';
import { ForbiddenError } from '../core/errors.js';
import type { AdminRow } from '../db/types.js';
import { normalizeIp } from '../core/network.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
    admin: AdminRow | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean;
    /**
     * Needs an administrator's token: the API key is refused with 403 `api_key_refused`, before
     * the body is read. A function decides per request from the route's parameters (e.g. which
     * setting a PUT writes).
     */
    adminOnly?: boolean | ((req: FastifyRequest) => boolean);
  }
}

/**
 * The caller's address: Fastify's `req.ip`, which honours TRUST_PROXY (N trusted hops, or trusted
 * proxy addresses) and otherwise is the socket address. Whatever a client writes into
 * X-Forwarded-For itself stays to the left of what trusted proxies appended, and is ignored.
 * IPv4-mapped IPv6 is reported as plain IPv4, so allowlist entries and lockout keys match.
 */
export function callerIp(req: FastifyRequest): string {
  const raw = req.ip ?? req.socket.remoteAddress ?? '';
  let ip = normalizedIps.get(raw);
  if (ip === undefined) {
    ip = normalizeIp(raw)?.toString() ?? raw;
    // A bounded memo of a pure function: parsing the same few client addresses again on every
    // request was ~2% of a small GET. Emptied when full, so a spray of addresses cannot grow it.
    if (normalizedIps.size >= NORMALIZED_IPS_MAX) normalizedIps.clear();
    normalizedIps.set(raw, ip);
  }
  return ip;
}

const NORMALIZED_IPS_MAX = 4096;
const normalizedIps = new Map<string, string>();

export const API_KEY_REFUSED = 'This action needs an administrator login, not the API key';

/** Whether the route refuses the API key for this request (its `adminOnly` config). */
export function refusesApiKey(req: FastifyRequest): boolean {
  const rule = req.routeOptions.config?.adminOnly;
  return typeof rule === 'function' ? rule(req) : rule === true;
}

/** The admin record of an authenticated request (routes that need the password hash, e.g. reveal). */
export function requireAdmin(req: FastifyRequest): AdminRow {
  // Only the API key authenticates without an admin row, and it is authenticated: 403, not 401.
  if (!req.admin) throw new ForbiddenError(API_KEY_REFUSED, 'api_key_refused');
  return req.admin;
}
