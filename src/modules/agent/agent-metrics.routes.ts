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
    async (req, reply) => {
      const view = await points.view(req.query.points ?? 30);
      // The view is built field by field to MetricsView (HeartbeatPoints.view), in its order, so
      // JSON.stringify writes the very bytes the schema's serializer would for every value the
      // schema accepts, four times faster: 150 ms against 700 ms for 10,000 servers × 30 readings
      // (21 MB). Set here, after the view: a failure before it answers through the error schemas.
      // A reply with its own serializer gets no content type from Fastify: named here, as the
      // schema's serializer would have it.
      reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
      return view;
    },
  );
};
