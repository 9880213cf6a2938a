import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { UnprocessableError } from '../../core/errors.js';
import { ErrorResponse } from '../auth/auth.schemas.js';
import { CreateScheduleBody, ScheduleIdParams, ScheduleView, UpdateScheduleBody } from './schedules.schemas.js';

const SCHEDULER_TICK_MS = 2000;

/**
 * The app's Ajv coerces 0 to null for a nullable integer (`exec_timeout: 0` would silently mean
 * "the default"); such values are refused on the raw body first.
 */
async function noCoercedNulls(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== 'object') return;
  for (const field of ['exec_timeout', 'script_id']) {
    const v = body[field];
    if (v === 0 || v === false || v === '' || v === '0') {
      throw new UnprocessableError(`Validation failed: body.${field} must be >= 1 or null`, [
        { path: `body.${field}`, message: 'must be >= 1 or null' },
      ]);
    }
  }
}

/** Push and script schedules (spec §E), prefix /api/schedules, and the scheduler loop. */
export const schedulesRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const tags = ['schedules'];
  const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  if (c.config.backgroundJobs) c.onClose(c.schedules.startLoop(SCHEDULER_TICK_MS));

  app.get('/', { schema: { tags, response: { 200: Type.Array(ScheduleView) } } }, async () => c.schedules.list());

  app.post(
    '/',
    { preValidation: noCoercedNulls, schema: { tags, body: CreateScheduleBody, response: { 201: ScheduleView, ...errors } } },
    async (req, reply) => reply.code(201).send(await c.schedules.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    { preValidation: noCoercedNulls, schema: { tags, params: ScheduleIdParams, body: UpdateScheduleBody, response: { 200: ScheduleView, ...errors } } },
    async (req) => c.schedules.update(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: ScheduleIdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await c.schedules.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
