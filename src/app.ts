/**
 * `buildApp(config)`: plugins, modules and the one error handler — no listening, so tests can
 * drive it with `inject`. `src/server.ts` listens and closes gracefully.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppConfig } from './config.js';
import { createContainer, type Container, type ContainerOptions } from './container.js';
import { installAuthHook } from './http/auth-hook.js';
import { installErrorHandling } from './http/error-handler.js';
import { installFiniteNumberGuard } from './http/finite-numbers.js';
import { installValidation } from './http/validation.js';
import { modules } from './modules/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
    /** Every registered route (method + url + public flag), for docs and the auth coverage test. */
    routeTable: Array<{ method: string; url: string; public: boolean; websocket: boolean }>;
  }
}

export interface BuildOptions extends ContainerOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Secrets must never reach a log line, whatever a module logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.password',
  '*.private_key',
  '*.encrypted_pw',
  '*.current_password',
  '*.new_password',
  '*.token',
];

export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const container = await createContainer(config, app.log, opts);
  app.decorate('container', container);
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
  app.addHook('onClose', async () => container.close());

  installValidation(app);
  installErrorHandling(app);
  installAuthHook(app, container);
  installFiniteNumberGuard(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Fleet Admin API', version: config.version },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  for (const m of modules) {
    await app.register(m.plugin, { prefix: m.prefix, c: container });
  }
  return app;
}
