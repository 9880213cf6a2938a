/**
 * A rate limit for anonymous routes, per caller address, so that nobody without a login can make
 * the service hash passwords (or serve wallpapers) without bound. Authenticated routes are not
 * limited here: they are refused at once without a valid token. The agent heartbeat is exempt:
 * it is checked against its per-server token, and thousands of agents may share one NAT address.
 * With several workers the counters live in Redis, so the limit holds for the whole service; if
 * Redis is unreachable the limit is skipped rather than failing requests.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../core/errors.js';

const EXEMPT = new Set(['/api/agent/heartbeat']);

type RouteClass = 'auth' | 'public';

function routeClass(req: FastifyRequest): RouteClass | null {
  // `routeOptions` is a getter that builds a new object: read it once.
  const { url: route = '', config } = req.routeOptions;
  if (!config?.public || EXEMPT.has(route)) return null;
  return route.startsWith('/api/auth/') ? 'auth' : 'public';
}

export interface RateLimitOptions {
  /** `redis://…` shares the counters between workers; anything else keeps them in memory. */
  cacheUrl: string;
  cachePrefix: string;
  /** Per address and minute: `auth` for login, refresh and logout (each may cost an Argon2 hash),
   *  `public` for the other anonymous routes; 0 turns a class off. */
  perMinute: Record<RouteClass, number>;
}

export async function installAnonymousRateLimit(app: FastifyInstance, o: RateLimitOptions): Promise<void> {
  if (o.perMinute.auth === 0 && o.perMinute.public === 0) return;
  const limited = (req: FastifyRequest): RouteClass | null => {
    const c = routeClass(req);
    return c && o.perMinute[c] > 0 ? c : null;
  };
  // ioredis is imported only when the cache is Redis: the in-process default never loads it.
  const redis = o.cacheUrl.startsWith('redis')
    ? new (await import('ioredis')).Redis(o.cacheUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : null;
  if (redis) {
    redis.on('error', () => {}); // an outage is reported by /health and the cache adapter; here it only skips the limit
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    await redis.connect().catch(() => {});
  }
  // Only anonymous routes get the limiter's hook at all: an authenticated request (the bulk of
  // the traffic) pays nothing for it. The flag is set before the plugin sees the route.
  app.addHook('onRoute', (r) => {
    if (r.config && (r.config as { public?: boolean }).public && !EXEMPT.has(r.url)) (r.config as { rateLimit?: object }).rateLimit = {};
  });
  await app.register(rateLimit, {
    global: false,
    // After authentication has set the caller address (TRUST_PROXY applies) and before the handler.
    hook: 'preHandler',
    redis: redis ?? undefined,
    nameSpace: `${o.cachePrefix}ratelimit:`,
    skipOnError: true,
    timeWindow: 60_000,
    allowList: (req) => limited(req) === null,
    keyGenerator: (req) => `${routeClass(req)}:${req.actor?.ip ?? req.ip}`,
    max: (req) => o.perMinute[routeClass(req) ?? 'public'],
    errorResponseBuilder: (_req, ctx) => new TooManyRequestsError('Too many requests; try again later', Math.ceil(ctx.ttl / 1000)),
  });
}
