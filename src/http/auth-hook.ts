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

/**
 * The token of an `Authorization` header, null when it is not `Bearer <token>`: the pattern's
 * answer, remembered for the last few headers seen. A pure function of the header, so nothing
 * about the token's validity is remembered here (every request still checks it). Worth it because
 * the header is a fresh string each request: the pattern's capture is a new string too, whose
 * hash the token lookup must compute over its ~200 characters (~0.7 µs), while the remembered
 * token's hash is computed once, and comparing the header with a remembered one is a memcmp.
 */
export class BearerTokens {
  private readonly headers: string[] = [];
  private readonly tokens: Array<string | null> = [];
  private next = 0;

  constructor(private readonly size = 4) {}

  of(header: string): string | null {
    for (let i = 0; i < this.headers.length; i++) if (this.headers[i] === header) return this.tokens[i];
    const token = BEARER.exec(header)?.[1] ?? null;
    this.headers[this.next] = header;
    this.tokens[this.next] = token;
    this.next = (this.next + 1) % this.size;
    return token;
  }
}

/** Sets the caller from a checked token; the refusal when there is no admin for it. */
function acceptAdmin(req: FastifyRequest, admin: AdminRow | null, ip: string): Error | undefined {
  if (!admin) {
    req.actor = { adminId: null, username: 'anonymous', ip };
    return new UnauthorizedError('Invalid or expired token', 'token_invalid');
  }
  req.admin = admin;
  req.actor = { adminId: admin.id, username: admin.username, ip };
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

  const bearer = new BearerTokens();
  // A callback hook: the common case (a known token) answers without a promise. The caller is
  // anonymous until a check passes (the refusals and the public routes are answered as that).
  app.addHook('onRequest', (req, _reply, done) => {
    const ip = callerIp(req);
    // Swagger UI's routes are public; match them by the route pattern, never by the raw URL.
    // `routeOptions` is a getter that builds a new object: read it once.
    const { url: route = '', config } = req.routeOptions;
    const open = req.is404 || Boolean(config?.public) || route === '/docs' || route.startsWith('/docs/');
    const auth = req.headers.authorization;
    if (open || !auth) {
      req.actor = { adminId: null, username: 'anonymous', ip };
      return open ? done() : authenticateApiKey(req, done);
    }
    const token = bearer.of(auth);
    if (token === null) return done(acceptAdmin(req, null, ip));
    const known = d.auth.authenticateKnown(token);
    if (known !== undefined) return done(acceptAdmin(req, known, ip));
    req.actor = { adminId: null, username: 'anonymous', ip };
    d.auth.authenticate(token).then((admin) => done(acceptAdmin(req, admin, ip)), done);
  });

  /** No Bearer header: the X-API-Key header, or 401. */
  function authenticateApiKey(req: FastifyRequest, done: (err?: Error) => void): void {
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey) {
      d.auth.apiKeyMatches(apiKey).then((matches) => done(acceptApiKey(req, matches)), done);
      return;
    }
    done(new UnauthorizedError('Not authenticated'));
  }
}
