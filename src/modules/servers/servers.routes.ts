import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServersService } from './servers.service.js';
import { ErrorResponse } from '../../http/schemas.js';
import { CreateServerBody, IdParams, ServerView, TestResult, UpdateServerBody } from './servers.schemas.js';

export const serversRoutes: FastifyPluginAsyncTypebox<{ servers: ServersService }> = async (app, { servers }) => {
  const tags = ['servers'];
  const errors = { 400: ErrorResponse, 404: ErrorResponse };

  app.get('/', { schema: { tags, response: { 200: Type.Array(ServerView) } } }, async () => servers.list());

  app.get(
    '/:id',
    { schema: { tags, params: IdParams, response: { 200: ServerView, 404: ErrorResponse } } },
    async (req) => servers.view(req.params.id),
  );

  app.post(
    '/',
    { schema: { tags, body: CreateServerBody, response: { 201: ServerView, 403: ErrorResponse, 429: ErrorResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await servers.create(req.actor, req.body, req.admin)),
  );

  app.put(
    '/:id',
    {
      schema: { tags, params: IdParams, body: UpdateServerBody, response: { 200: ServerView, 403: ErrorResponse, 429: ErrorResponse, ...errors } },
    },
    async (req) => servers.update(req.actor, req.params.id, req.body, req.admin),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await servers.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/test',
    { schema: { tags, params: IdParams, response: { 200: TestResult, 404: ErrorResponse } } },
    async (req) => servers.test(req.actor, req.params.id),
  );

  app.post(
    '/:id/forget-host-key',
    { schema: { tags, params: IdParams, response: { 200: ServerView, 404: ErrorResponse } } },
    async (req) => servers.forgetHostKey(req.actor, req.params.id),
  );
};
