import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { shanghaiDay } from '../../core/time.js';
import type { AlertHistoryService } from './alert-history.service.js';
import { ExportQuery, HistoryPage, HistoryQuery, Stats, StatsQuery, ValidationError } from './alert-history.schemas.js';

export const alertHistoryRoutes: FastifyPluginAsyncTypebox<{ history: AlertHistoryService }> = async (app, { history }) => {
  const tags = ['alerts'];

  app.get(
    '/',
    { schema: { tags, querystring: HistoryQuery, response: { 200: HistoryPage, 422: ValidationError } } },
    async (req) => history.list(req.query),
  );

  app.get(
    '/export.csv',
    {
      schema: {
        tags,
        description:
          'The alert history as CSV (UTF-8 with BOM, CRLF), with the filters of the list and no paging: every matching row, newest first, streamed. Text cells starting with = + - @ get a leading apostrophe.',
        querystring: ExportQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'CSV' }), 422: ValidationError },
      },
    },
    async (req, reply) => {
      const chunks = history.exportCsv(req.query);
      const name = `alert-history-${shanghaiDay(Date.now())}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        // A stream is piped as is (Fastify skips the 200 schema's serializer for it); typed as the schema's string.
        .send(Readable.from(chunks) as unknown as string);
    },
  );

  app.get(
    '/stats',
    { schema: { tags, querystring: StatsQuery, response: { 200: Stats, 422: ValidationError } } },
    async (req) => history.stats(req.query.days),
  );
};
