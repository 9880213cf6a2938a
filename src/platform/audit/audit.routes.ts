import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable, ErrorResponse } from '../../http/schemas.js';
import { type AuditService } from './audit.service.js';


const AuditItem = Type.Object({
  id: Type.Integer(),
  admin_username: Nullable(Type.String()),
  action: Type.String(),
  target_type: Nullable(Type.String()),
  target_id: Nullable(Type.String()),
  resource_type: Nullable(Type.String()),
  resource_id: Nullable(Type.String()),
  target_name: Type.Optional(Nullable(Type.String())),
  detail: Nullable(Type.String()),
  ip_address: Nullable(Type.String()),
  created_at: Type.String(),
});

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['audit'],
        querystring: Type.Object({
          action: Type.Optional(Type.String({ maxLength: 100 })),
          admin_username: Type.Optional(Type.String({ maxLength: 100 })),
          date_from: Type.Optional(Type.String({ maxLength: 40 })),
          date_to: Type.Optional(Type.String({ maxLength: 40 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
        }),
        response: {
          200: Type.Object({
            total: Type.Integer(),
            limit: Type.Integer(),
            offset: Type.Integer(),
            items: Type.Array(AuditItem),
          }),
          422: Type.Object({ detail: Type.String(), errors: Type.Array(Type.Any()) }),
          401: ErrorResponse,
        },
      },
    },
    async (req) => audit.list(req.query),
  );
};
