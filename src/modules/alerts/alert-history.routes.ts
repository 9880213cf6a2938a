import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { HistoryPage, HistoryQuery, Stats, StatsQuery, ValidationError } from './alert-history.schemas.js';

export const alertHistoryRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const tags = ['alerts'];

  app.get(
    '/',
    { schema: { tags, querystring: HistoryQuery, response: { 200: HistoryPage, 422: ValidationError } } },
    async (req) => c.alerts.history.list(req.query),
  );

  app.get(
    '/stats',
    { schema: { tags, querystring: StatsQuery, response: { 200: Stats, 422: ValidationError } } },
    async (req) => c.alerts.history.stats(req.query.days),
  );
};
