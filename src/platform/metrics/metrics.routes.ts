/** `GET /metrics`: the Prometheus text format, for an administrator's token or the API key. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../../http/schemas.js';
import type { Metrics } from './metrics.js';

export const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['metrics'],
        description:
          'The service in the Prometheus text format (names start with `fleet_`): HTTP requests by route and status, pushes and their outcomes, rsync bytes, SSH pool connections and waits, heartbeats, open alerts, notifications, retry jobs by status, lease recoveries, and the process (CPU, memory, file descriptors, event-loop lag). Each process answers for itself.',
        response: { 200: Type.String(), 401: ErrorResponse },
      },
    },
    async (_req, reply) => {
      const { contentType, body } = await metrics.text();
      return reply.type(contentType).send(body);
    },
  );
};
