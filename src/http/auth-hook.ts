/**
 * Authentication for every route not marked `config: { public: true }`: a Bearer access token
 * (JWT whose token_version still matches) or the `X-API-Key` header (the pseudo-admin `api`).
 * It runs on `onRequest`, before any body is read, so anonymous uploads are refused cheaply.
 * Routes marked `config: { adminOnly }` refuse the API key with 403 `api_key_refused`: the key is
 * for machines and may not manage administrators, passwords or TOTP, read a stored secret (the
 * reveals) or weaken access control (the settings that guard access, the login allowlist).
 *
 * Every request is checked; a token and admin row checked within the last second are checked
 * from memory without a promise (`authenticateKnown`), anything else awaits the full check.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminRow } from '../db/types.js';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import { API_KEY_REFUSED, callerIp, refusesApiKey } from './request-context.js';

export interface AuthHookDeps {
  auth: {
    authenticate(token: string): Promise<AdminRow | null>;
    /** `authenticate` from memory; undefined when it has to read. */
    authenticateKnown(token: string): AdminRow | null | undefined;
    apiKeyMatches(key: string): Promise<boolean>;
  };
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** Sets the caller from a checked token; the refusal when there is no admin for it. */
function acceptAdmin(req: FastifyRequest, admin: AdminRow | null): Error | undefined {
  if (!admin) return new UnauthorizedError('Invalid or expired token', 'token_invalid');
  req.admin = admin;
  req.actor = { adminId: admin.id, username: admin.username, ip: req.actor.ip };
  return undefined;
}

function acceptApiKey(req: FastifyRequest, matches: boolean): Error | undefined {
  if (!matches) return new UnauthorizedError('Invalid API key', 'api_key_invalid');
  req.actor = { adminId: null, username: 'api', ip: req.actor.ip };
  return refusesApiKey(req) ? new ForbiddenError(API_KEY_REFUSED, 'api_key_refused') : undefined;
}

export function installAuthHook(app: FastifyInstance, d: AuthHookDeps): void {
  app.decorateRequest('actor', null as never);
  app.decorateRequest('admin', null);

  // A callback hook: the common case (a known token) answers without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    req.actor = { adminId: null, username: 'anonymous', ip: callerIp(req) };
    // Swagger UI's routes are public; match them by the route pattern, never by the raw URL.
    // `routeOptions` is a getter that builds a new object: read it once.
    const { url: route = '', config } = req.routeOptions;
    if (req.is404 || config?.public || route === '/docs' || route.startsWith('/docs/')) return done();

    const auth = req.headers.authorization;
    if (auth) {
      const m = BEARER.exec(auth);
      if (!m) return done(acceptAdmin(req, null));
      const known = d.auth.authenticateKnown(m[1]);
      if (known !== undefined) return done(acceptAdmin(req, known));
      d.auth.authenticate(m[1]).then((admin) => done(acceptAdmin(req, admin)), done);
      return;
    }
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey) {
      d.auth.apiKeyMatches(apiKey).then((matches) => done(acceptApiKey(req, matches)), done);
      return;
    }
    done(new UnauthorizedError('Not authenticated'));
  });
}
