import { IdParams, ErrorResponse } from '../../http/schemas.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { CreateScheduleBody, ScheduleView, UpdateScheduleBody } from './schedules.schemas.js';

const SCHEDULER_TICK_MS = 2000;

/** Push and script schedules (spec §E), prefix /api/schedules, and the scheduler loop. */
export const schedulesRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const tags = ['schedules'];
  const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  if (c.config.backgroundJobs) c.onClose(c.schedules.startLoop(SCHEDULER_TICK_MS));

  app.get('/', { schema: { tags, response: { 200: Type.Array(ScheduleView) } } }, async () => c.schedules.list());

  app.post(
    '/',
    { schema: { tags, body: CreateScheduleBody, response: { 201: ScheduleView, ...errors } } },
    async (req, reply) => reply.code(201).send(await c.schedules.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    { schema: { tags, params: IdParams, body: UpdateScheduleBody, response: { 200: ScheduleView, ...errors } } },
    async (req) => c.schedules.update(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await c.schedules.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
