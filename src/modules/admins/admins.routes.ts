import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type AdminsService } from './admins.service.js';
import { AdminView, CreateAdminBody } from './admins.schemas.js';
import { ErrorResponse, IdParams } from '../../http/schemas.js';

export const adminsRoutes: FastifyPluginAsyncTypebox<{ admins: AdminsService }> = async (app, { admins }) => {
  app.get('/', { schema: { tags: ['admins'], response: { 200: Type.Array(AdminView) } } }, async () =>
    admins.list(),
  );

  app.post(
    '/',
    {
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
