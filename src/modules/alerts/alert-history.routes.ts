import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AlertHistoryService } from './alert-history.service.js';
import { HistoryPage, HistoryQuery, Stats, StatsQuery, ValidationError } from './alert-history.schemas.js';

export const alertHistoryRoutes: FastifyPluginAsyncTypebox<{ history: AlertHistoryService }> = async (app, { history }) => {
  const tags = ['alerts'];

  app.get(
    '/',
    { schema: { tags, querystring: HistoryQuery, response: { 200: HistoryPage, 422: ValidationError } } },
    async (req) => history.list(req.query),
  );

  app.get(
    '/stats',
    { schema: { tags, querystring: StatsQuery, response: { 200: Stats, 422: ValidationError } } },
    async (req) => history.stats(req.query.days),
  );
};
