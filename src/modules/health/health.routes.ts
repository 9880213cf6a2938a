import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HealthService } from './health.service.js';

const Status = Type.Union([Type.Literal('ok'), Type.Literal('error')]);

export const healthRoutes: FastifyPluginAsyncTypebox<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), db: Status, cache: Status, version: Type.String() }),
        },
      },
    },
    async () => health.check(),
  );
};
