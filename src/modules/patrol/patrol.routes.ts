/** `/api/settings/ops-patrol/...`: host patrol readiness and the messenger env sync. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../../http/schemas.js';
import type { PatrolService } from './patrol.service.js';
import { PatrolStatus, SyncMessengerResult } from './patrol.schemas.js';

export const patrolRoutes: FastifyPluginAsyncTypebox<{ patrol: PatrolService }> = async (app, { patrol: service }) => {
  const tags = ['ops-patrol'];

  app.get(
    '/ops-patrol/status',
    {
      schema: {
        tags,
        response: {
          200: PatrolStatus,
          401: ErrorResponse,
        },
      },
    },
    async () => service.status(),
  );

  app.post(
    '/ops-patrol/sync-messenger',
    {
      schema: {
        tags,
        response: {
          200: SyncMessengerResult,
          400: ErrorResponse,
          401: ErrorResponse,
        },
      },
    },
    async (req) => service.syncMessenger(req.actor),
  );
};
