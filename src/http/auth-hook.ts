/**
 * Authentication for every route not marked `config: { public: true }`: a Bearer access token
 * (JWT whose token_version still matches) or the `X-API-Key` header (the pseudo-admin `api`).
 * It runs on `onRequest`, before any body is read, so anonymous uploads are refused cheaply.
 * Routes marked `config: { adminOnly }` refuse the API key with 403 `api_key_refused`: the key is
 * for machines and may not manage administrators, passwords or TOTP, read a stored secret (the
 * reveals) or weaken access control (the settings that guard access, the login allowlist).
 */
import type { FastifyInstance } from 'fastify';
import type { AdminRow } from '../db/types.js';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import { API_KEY_REFUSED, callerIp, refusesApiKey } from './request-context.js';

export interface AuthHookDeps {
  auth: {
    authenticate(token: string): Promise<AdminRow | null>;
    apiKeyMatches(key: string): Promise<boolean>;
  };
}

export function installAuthHook(app: FastifyInstance, d: AuthHookDeps): void {
  app.decorateRequest('actor', null as never);
  app.decorateRequest('admin', null);

  app.addHook('onRequest', async (req) => {
    const ip = callerIp(req);
    req.actor = { adminId: null, username: 'anonymous', ip };
    // Swagger UI's routes are public; match them by the route pattern, never by the raw URL.
    const route = req.routeOptions.url ?? '';
    if (req.is404 || req.routeOptions.config?.public || route === '/docs' || route.startsWith('/docs/')) return;

    const auth = req.headers.authorization;
    if (auth) {
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      const admin = m ? await d.auth.authenticate(m[1]) : null;
      if (!admin) throw new UnauthorizedError('Invalid or expired token', 'token_invalid');
      req.admin = admin;
      req.actor = { adminId: admin.id, username: admin.username, ip };
      return;
    }
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey) {
      if (!(await d.auth.apiKeyMatches(apiKey))) throw new UnauthorizedError('Invalid API key', 'api_key_invalid');
      req.actor = { adminId: null, username: 'api', ip };
      if (refusesApiKey(req)) throw new ForbiddenError(API_KEY_REFUSED, 'api_key_refused');
      return;
    }
    throw new UnauthorizedError('Not authenticated');
  });
}
