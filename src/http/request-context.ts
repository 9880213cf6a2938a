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
    /** Needs an administrator's token: the API key is refused with 403. */
    adminOnly?: boolean;
  }
}

/** The socket address, or the first X-Forwarded-For hop only when TRUST_PROXY=1. */
export function callerIp(req: FastifyRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = req.headers['x-forwarded-for'];
    const first = (Array.isArray(xff) ? xff[0] : xff)?.split(',')[0]?.trim();
    if (first && normalizeIp(first)) return normalizeIp(first)!.toString();
  }
  const raw = req.socket.remoteAddress ?? '';
  return normalizeIp(raw)?.toString() ?? raw;
}

export const API_KEY_REFUSED = 'This action needs an administrator login, not the API key';

/** The admin record of an authenticated request (routes that need the password hash, e.g. reveal). */
export function requireAdmin(req: FastifyRequest): AdminRow {
  // Only the API key authenticates without an admin row, and it is authenticated: 403, not 401.
  if (!req.admin) throw new ForbiddenError(API_KEY_REFUSED);
  return req.admin;
}
