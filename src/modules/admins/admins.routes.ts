import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { AdminSchema } from '../auth/auth.schemas.js';
import { ErrorResponse } from '../../http/schemas.js';

export const adminsRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  app.get('/', { schema: { tags: ['admins'], response: { 200: Type.Array(AdminSchema) } } }, async () =>
    c.admins.list(),
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['admins'],
        body: Type.Object({
          username: Type.String({ minLength: 1, maxLength: 100 }),
          password: Type.String({ minLength: 8, maxLength: 1024 }),
        }),
        response: { 201: AdminSchema, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await c.admins.create(req.actor, req.body.username, req.body.password)),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['admins'],
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 204: Type.Null(), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      await c.admins.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
