/**
 * `GET /api/agent/metrics`: every server's newest reading and its recent readings, in one answer.
 * One batch request rather than one per server: the monitoring table sorts the whole fleet by
 * these values, so it needs all of them anyway, and N requests would cost N round trips.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { HeartbeatPoints } from './heartbeat-points.js';
import { MetricsQuery, MetricsView, ValidationError } from './agent.schemas.js';

export const agentMetricsRoutes: FastifyPluginAsyncTypebox<{ points: HeartbeatPoints }> = async (app, { points }) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['agent'],
        description: "Every server with its newest agent reading (CPU, memory, disk, load, clock drift, agent version) and its last `points` readings, oldest first.",
        querystring: MetricsQuery,
        response: { 200: MetricsView, 422: ValidationError },
      },
    },
    async (req) => points.view(req.query.points ?? 30),
  );
};
