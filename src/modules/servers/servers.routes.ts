import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { UnprocessableError } from '../../core/errors.js';
import { ErrorResponse } from '../auth/auth.schemas.js';
import { CreateServerBody, IdParams, ServerView, TestResult, UpdateServerBody } from './servers.schemas.js';

/**
 * The app's Ajv coerces scalars (`[1]` would become `["1"]`, `"web"` would become `["web"]`);
 * tags are checked on the raw body first so a list of non-strings is a 422, not a silent fix-up.
 */
async function strictTags(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== 'object' || !('tags' in body) || body.tags === null) return;
  const tags = body.tags;
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
    throw new UnprocessableError('Validation failed: body.tags must be a list of strings', [
      { path: 'body.tags', message: 'must be a list of strings' },
    ]);
  }
}

export const serversRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const tags = ['servers'];
  const errors = { 400: ErrorResponse, 404: ErrorResponse };

  app.get('/', { schema: { tags, response: { 200: Type.Array(ServerView) } } }, async () => c.servers.list());

  app.get(
    '/:id',
    { schema: { tags, params: IdParams, response: { 200: ServerView, 404: ErrorResponse } } },
    async (req) => c.servers.view(req.params.id),
  );

  app.post(
    '/',
    { preValidation: strictTags, schema: { tags, body: CreateServerBody, response: { 201: ServerView, ...errors } } },
    async (req, reply) => reply.code(201).send(await c.servers.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    {
      preValidation: strictTags,
      schema: { tags, params: IdParams, body: UpdateServerBody, response: { 200: ServerView, ...errors } },
    },
    async (req) => c.servers.update(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await c.servers.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/test',
    { schema: { tags, params: IdParams, response: { 200: TestResult, 404: ErrorResponse } } },
    async (req) => c.servers.test(req.actor, req.params.id),
  );

  app.post(
    '/:id/forget-host-key',
    { schema: { tags, params: IdParams, response: { 200: ServerView, 404: ErrorResponse } } },
    async (req) => c.servers.forgetHostKey(req.actor, req.params.id),
  );
};
