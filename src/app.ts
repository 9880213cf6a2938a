/**
 * `buildApp(config)`: the composition (every service, by process role), the HTTP plumbing (one
 * error handler, validation, authentication), the API docs and each feature's routes — no
 * listening, so tests drive it with `inject`. `src/server.ts` listens and closes gracefully.
 */
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { compose, type ComposeOptions, type Services } from './composition/compose.js';
import { PROJECT_ROOT } from './core/project-root.js';
import type { AppConfig } from './config/config.js';
import { installAuthHook } from './http/auth-hook.js';
import { installConsole } from './http/console-static.js';
import { installErrorHandling } from './http/error-handler.js';
import { installIdempotency } from './http/idempotency.js';
import { installInputGuard } from './http/input-guard.js';
import { lazyChildLoggerFactory, logOptions, RequestLogController } from './http/log-options.js';
import { installAnonymousRateLimit } from './http/rate-limit.js';
import { applySecurityHeaders, buildSecurityHeaderSets, docsCsp, installSecurityHeaders } from './http/security-headers.js';
import { installSerialization, installValidation } from './http/validation.js';
import { errorCodesMarkdown } from './core/error-codes.js';
import type { ProcessRole } from './platform/process-role.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every service of this process (tests reach in through it; routes never do). */
    services: Services;
    /** Every registered route (method + url + public flag), for docs and the auth coverage test. */
    routeTable: Array<{ method: string; url: string; public: boolean; websocket: boolean }>;
  }
}

export interface BuildOptions extends ComposeOptions {
  logger?: FastifyServerOptions['logger'];
  /** `single` (default) or `worker`; the primary of a cluster serves no HTTP and never builds an app. */
  role?: Exclude<ProcessRole, 'primary'>;
  /** The built web console to serve at `/` (default: web/dist of the project); null serves none. */
  consoleDir?: string | null;
}

function defaultConsoleDir(): string | null {
  return PROJECT_ROOT ? path.join(PROJECT_ROOT.dir, 'web', 'dist') : null;
}

/** Fastify's trustProxy takes hops as a function of the hop index (its types lack the number form). */
function trustProxyOption(tp: AppConfig['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof tp === 'number' ? (_address: string, hop: number) => hop < tp : tp;
}

export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const securityHeaders = buildSecurityHeaderSets();
  const app = Fastify({
    // A caller's logger options (tests capture output) keep the redaction and the URL rule.
    logger: opts.logger === false ? false : { ...logOptions(config.logLevel), ...(typeof opts.logger === 'object' ? opts.logger : {}) },
    // One line per request, at a level chosen by its outcome.
    logController: new RequestLogController(),
    // A request's logger is made when it first logs a line (most requests log none).
    ...(opts.logger === false ? {} : { childLoggerFactory: lazyChildLoggerFactory }),
    bodyLimit: 1024 * 1024,
    // TRUST_PROXY: how many proxy hops (or which proxies) may name the caller in X-Forwarded-For.
    trustProxy: trustProxyOption(config.trustProxy),
    // Errors the router raises before any hook (a malformed URL, a path segment over its limit)
    // get the same {detail} shape and security headers as every other answer.
    frameworkErrors: (err, req, reply) => {
      applySecurityHeaders(securityHeaders, req, reply as FastifyReply);
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void (reply as FastifyReply).code(tooLong ? 414 : 400).send({ detail: tooLong ? 'A path segment is too long' : 'The URL is not valid', code: 'invalid_url' });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const root = await compose(config, opts.role ?? 'single', app.log, opts);
  app.decorate('services', root.services);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) {
      app.routeTable.push({
        method,
        url: r.url,
        public: Boolean(r.config?.public) || r.url.startsWith('/docs'),
        websocket: Boolean((r as { websocket?: boolean }).websocket),
      });
    }
  });
  app.addHook('onClose', () => root.stop());
  // Every answer is counted by its route's pattern (never the raw URL: one series per route).
  const { metrics } = root.services;
  app.addHook('onResponse', (req, reply, done) => {
    metrics.httpAnswered(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // First of all hooks, so that refusals by the later ones carry the headers too.
  installSecurityHeaders(app, securityHeaders);
  installValidation(app);
  installSerialization(app);
  installErrorHandling(app, await installConsole(app, opts.consoleDir === undefined ? defaultConsoleDir() : opts.consoleDir));
  installAuthHook(app, { auth: root.services.auth });
  installInputGuard(app);
  installIdempotency(app, root.services.idempotency);
  await installAnonymousRateLimit(app, { cacheUrl: config.cacheUrl, cachePrefix: config.cachePrefix, perMinute: config.anonRateLimit });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Fleet Admin API', version: config.version, description: errorCodesMarkdown() },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, transformStaticCSP: docsCsp });

  for (const feature of root.features) {
    for (const r of feature.routes ?? []) await app.register(r.plugin, { ...r.options, prefix: r.prefix });
  }
  await root.start();
  return app;
}
