import { IdParams, ErrorResponse } from '../../http/schemas.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { RetryJobView, RetryListQuery } from './retries.schemas.js';

const WORKER_INTERVAL_MS = 5000;

/** Retry jobs (spec §J) and the background worker that runs the due ones. */
export const retriesRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const tags = ['retries'];

  if (c.config.backgroundJobs) {
    const stop = c.retries.startWorker(WORKER_INTERVAL_MS);
    c.onClose(stop);
  } else {
    c.onClose(() => c.retries.shutdown());
  }

  app.get(
    '/',
    { schema: { tags, querystring: RetryListQuery, response: { 200: Type.Array(RetryJobView) } } },
    async (req) => c.retries.list(req.query.limit ?? 100),
  );

  app.post(
    '/:id/retry',
    { schema: { tags, params: IdParams, response: { 200: RetryJobView, 404: ErrorResponse } } },
    async (req) => c.retries.retry(req.actor, req.params.id),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await c.retries.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
