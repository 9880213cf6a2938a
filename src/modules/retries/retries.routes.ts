import { IdParams, ErrorResponse } from '../../http/schemas.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import type { RetriesService } from './retries.service.js';
import { RetryJobView, RetryListQuery } from './retries.schemas.js';

/** Retry jobs: list, reset to pending, delete (prefix /api/retries). */
export const retriesRoutes: FastifyPluginAsyncTypebox<{ retries: RetriesService }> = async (app, { retries }) => {
  const tags = ['retries'];

  app.get(
    '/',
    { schema: { tags, querystring: RetryListQuery, response: { 200: Type.Array(RetryJobView) } } },
    async (req) => retries.list(req.query.limit ?? 100),
  );

  app.post(
    '/:id/retry',
    {
      config: { idempotent: true },
      schema: { tags, params: IdParams, headers: IdempotencyHeaders, response: { 200: RetryJobView, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse } },
    },
    async (req) => retries.retry(req.actor, req.params.id),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await retries.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
