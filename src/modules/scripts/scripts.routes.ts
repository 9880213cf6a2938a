import { IdParams, ErrorResponse } from '../../http/schemas.js';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ScriptsService } from './scripts.service.js';
import {
  CreateScriptBody, RunScriptBody, ScriptRunView, ScriptView, UpdateScriptBody,
} from './scripts.schemas.js';

/** Stored scripts and running scripts on servers, prefix /api/scripts. */
export const scriptsRoutes: FastifyPluginAsyncTypebox<{ scripts: ScriptsService }> = async (app, { scripts }) => {
  const tags = ['scripts'];

  app.get('/', { schema: { tags, response: { 200: Type.Array(ScriptView) } } }, async () => scripts.list());

  app.get(
    '/:id',
    { schema: { tags, params: IdParams, response: { 200: ScriptView, 404: ErrorResponse } } },
    async (req) => scripts.get(req.params.id),
  );

  app.post(
    '/',
    { schema: { tags, body: CreateScriptBody, response: { 201: ScriptView, 400: ErrorResponse } } },
    async (req, reply) => reply.code(201).send(await scripts.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    { schema: { tags, params: IdParams, body: UpdateScriptBody, response: { 200: ScriptView, 404: ErrorResponse } } },
    async (req) => scripts.update(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await scripts.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/run',
    {
      config: { idempotent: true },
      schema: { tags, headers: IdempotencyHeaders, body: RunScriptBody, response: { 200: ScriptRunView, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse } },
    },
    async (req) => scripts.run(req.actor, req.body),
  );
};
