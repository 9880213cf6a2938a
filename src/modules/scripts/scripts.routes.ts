import { IdParams, ErrorResponse, ValidationErrorResponse } from '../../http/schemas.js';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ScriptsService } from './scripts.service.js';
import {
  CreateScriptBody, RunParams, RunScriptBody, ScriptRunAccepted, ScriptRunDetail, ScriptRunEventsQuery, ScriptRunEventsView, ScriptRunsPage,
  ScriptRunsQuery, ScriptRunView, ScriptView, UpdateScriptBody,
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
      schema: {
        tags,
        description: [
          'Runs a stored script (`script_id`) or inline content on servers over SSH, at most 10 at once, and answers 200 with every server\'s result when all have ended.',
          '',
          'With `async: true` it answers 202 `{ run_id, status: "running" }` as soon as the run is stored: follow it with `script_*` messages on `/ws/alerts` and read what was missed with `GET /api/scripts/runs/{run_id}/events?after=<seq>`.',
        ].join('\n'),
        headers: IdempotencyHeaders,
        body: RunScriptBody,
        response: { 200: ScriptRunView, 202: ScriptRunAccepted, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const out = await scripts.run(req.actor, req.body);
      if (out.async) return reply.code(202).send({ run_id: out.run_id, status: 'running' as const });
      return reply.code(200).send(out.view);
    },
  );

  app.get(
    '/runs',
    {
      schema: {
        tags,
        description: 'Script runs, newest first, without per-server results; filtered by `status` and by start time (`from`/`to`: a date is its whole Asia/Shanghai day, a datetime without an offset is Asia/Shanghai time).',
        querystring: ScriptRunsQuery,
        response: { 200: ScriptRunsPage, 422: ValidationErrorResponse },
      },
    },
    async (req) => scripts.listRuns(req.query),
  );

  app.get(
    '/runs/:run_id',
    {
      schema: {
        tags,
        description: 'One run with each server\'s status, exit code, duration, error and (once ended) the last 64 KiB of stdout and stderr.',
        params: RunParams,
        response: { 200: ScriptRunDetail, 404: ErrorResponse },
      },
    },
    async (req) => scripts.getRun(req.params.run_id),
  );

  app.get(
    '/runs/:run_id/events',
    {
      schema: {
        tags,
        description: 'The live messages of a run after `after` (a seq), oldest first: what a page that reloads or reconnects missed. Output arrives as `script_output` chunks, in order per server.',
        params: RunParams,
        querystring: ScriptRunEventsQuery,
        response: { 200: ScriptRunEventsView, 404: ErrorResponse },
      },
    },
    async (req) => scripts.eventsOf(req.params.run_id, req.query.after ?? 0, req.query.limit ?? 1000),
  );
};
