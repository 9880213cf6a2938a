import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ActiveAlertsService } from './active-alerts.service.js';
import { ActiveAlerts, ActiveAlertsQuery } from './active-alerts.schemas.js';

/** `GET /api/alert-history/active`: the alerts open now (a static path beside the history list). */
export const activeAlertsRoutes: FastifyPluginAsyncTypebox<{ active: ActiveAlertsService }> = async (app, { active }) => {
  app.get(
    '/active',
    { schema: { tags: ['alerts'], description: 'The alerts open now, newest first.', querystring: ActiveAlertsQuery, response: { 200: ActiveAlerts } } },
    async (req) => active.list(req.query.limit ?? 50),
  );
};
