import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { shanghaiDay } from '../../core/time.js';
import { ErrorResponse, ValidationErrorResponse } from '../../http/schemas.js';
import { AuditActions, AuditExportQuery, AuditIdParams, AuditItem, AuditPage, AuditQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['audit'],
        querystring: AuditQuery,
        response: {
          200: AuditPage,
          422: ValidationErrorResponse,
          401: ErrorResponse,
        },
      },
    },
    async (req) => audit.list(req.query),
  );

  app.get(
    '/actions',
    {
      schema: {
        tags: ['audit'],
        description: 'Every action name the audit log holds, sorted (the choices of the action filter).',
        response: { 200: AuditActions, 401: ErrorResponse },
      },
    },
    async () => audit.actions(),
  );

  app.get(
    '/export.csv',
    {
      schema: {
        tags: ['audit'],
        description:
          'Every entry matching the filters of GET /api/audit (no paging), newest first, as CSV (UTF-8 with a byte order mark). ' +
          "Cells starting with = + - @ are prefixed with ' so spreadsheets do not read them as formulas.",
        querystring: AuditExportQuery,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'CSV text' }), 422: ValidationErrorResponse, 401: ErrorResponse },
      },
    },
    async (req, reply) => {
      const chunks = audit.exportCsv(req.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${shanghaiDay(new Date())}.csv"`)
        .header('cache-control', 'no-store')
        // Streamed as read (the 200 schema documents the text; a stream is sent as is).
        .send(Readable.from(chunks) as unknown as string);
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['audit'],
        description: 'One audit entry, as the list shows it.',
        params: AuditIdParams,
        response: { 200: AuditItem, 404: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (req) => audit.get(req.params.id),
  );
};
