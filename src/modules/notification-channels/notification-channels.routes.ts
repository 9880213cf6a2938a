import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../../http/request-context.js';
import { ErrorResponse } from '../../http/schemas.js';
import {
  ChannelTypesResponse, ChannelView, CreateChannelBody, IdParams, RevealBody, RevealedChannel, TestResult, UpdateChannelBody,
} from './notification-channels.schemas.js';
import type { NotificationChannelsService } from './notification-channels.service.js';
import { channelTypes } from './channel-types.js';

export const notificationChannelsRoutes: FastifyPluginAsyncTypebox<{ channels: NotificationChannelsService }> = async (app, { channels: svc }) => {
  const tags = ['notification-channels'];

  app.get('/', { schema: { tags, response: { 200: Type.Array(ChannelView) } } }, async () => svc.list());

  app.get('/types', { schema: { tags, response: { 200: ChannelTypesResponse } } }, async () => channelTypes());

  app.get(
    '/:id',
    { schema: { tags, params: IdParams, response: { 200: ChannelView, 404: ErrorResponse, 500: ErrorResponse } } },
    async (req) => svc.get(req.params.id),
  );

  app.post(
    '/',
    { schema: { tags, body: CreateChannelBody, response: { 201: ChannelView, 400: ErrorResponse, 409: ErrorResponse } } },
    async (req, reply) => reply.code(201).send(await svc.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateChannelBody,
        response: { 200: ChannelView, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 500: ErrorResponse },
      },
    },
    async (req) => svc.update(req.actor, req.params.id, req.body),
  );

  app.post(
    '/:id/test',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 200: TestResult, 400: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse, 502: ErrorResponse },
      },
    },
    async (req) => svc.test(req.actor, req.params.id),
  );

  app.post(
    '/:id/reveal',
    {
      // Stored secrets: an administrator with their password, never the API key.
      config: { adminOnly: true },
      schema: {
        tags,
        params: IdParams,
        body: RevealBody,
        response: { 200: RevealedChannel, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse },
      },
    },
    async (req) => svc.reveal(req.actor, requireAdmin(req), req.params.id, req.body.current_password),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), 404: ErrorResponse } } },
    async (req, reply) => {
      await svc.delete(req.actor, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
