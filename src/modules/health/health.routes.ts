import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthView } from './health.schemas.js';
import type { HealthService } from './health.service.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ health: HealthService }> = async (app, { health }) => {
  app.get('/health', { config: { public: true }, schema: { tags: ['health'], response: { 200: HealthView } } }, async () =>
    health.check(),
  );
};
