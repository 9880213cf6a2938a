import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AdminsService } from './admins.service.js';
import { AdminView, CreateAdminBody } from './admins.schemas.js';
import { ErrorResponse, IdParams } from '../../http/schemas.js';

export const adminsRoutes: FastifyPluginAsyncTypebox<{ admins: AdminsService }> = async (app, { admins }) => {
  // Administrators are managed by administrators only: whoever holds the API key must not be
  // able to mint an admin (and with it a password for the reveal endpoints).
  const adminOnly = { adminOnly: true };
  app.get('/', { config: adminOnly, schema: { tags: ['admins'], response: { 200: Type.Array(AdminView) } } }, async () =>
    admins.list(),
  );

  app.post(
    '/',
    {
      config: adminOnly,
      schema: {
        tags: ['admins'],
        body: CreateAdminBody,
        response: { 201: AdminView, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await admins.create(req.actor, req.body.username, req.body.password)),
  );

  app.delete(
    '/:id',
    {
      config: adminOnly,
      schema: {
        tags: ['admins'],
        params: IdParams,
        response: { 204: Type.Null(), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      await admins.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
