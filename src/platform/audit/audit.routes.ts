import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, ValidationErrorResponse } from '../../http/schemas.js';
import { AuditPage, AuditQuery } from './audit.schemas.js';
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
};
