import { IdParams, ErrorResponse, ValidationErrorResponse } from '../../http/schemas.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import type { SchedulesService } from './schedules.service.js';
import { CreateScheduleBody, ScheduleRunsPage, ScheduleRunsQuery, ScheduleView, UpdateScheduleBody } from './schedules.schemas.js';

/** Push and script schedules, prefix /api/schedules. */
export const schedulesRoutes: FastifyPluginAsyncTypebox<{ schedules: SchedulesService }> = async (app, { schedules }) => {
  const tags = ['schedules'];
  const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  app.get('/', { schema: { tags, response: { 200: Type.Array(ScheduleView) } } }, async () => schedules.list());

  app.get(
    '/:id/runs',
    {
      schema: {
        tags,
        summary: "A schedule's runs, newest first (console)",
        params: IdParams,
        querystring: ScheduleRunsQuery,
        response: { 200: ScheduleRunsPage, 404: ErrorResponse, 422: ValidationErrorResponse },
      },
    },
    async (req) => schedules.runs(req.params.id, req.query),
  );

  app.post(
    '/',
    { config: { idempotent: true }, schema: { tags, headers: IdempotencyHeaders, body: CreateScheduleBody, response: { 201: ScheduleView, 409: ErrorResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await schedules.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    { schema: { tags, params: IdParams, body: UpdateScheduleBody, response: { 200: ScheduleView, ...errors } } },
    async (req) => schedules.update(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await schedules.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
