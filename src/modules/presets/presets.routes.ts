import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../../http/request-context.js';
import { ErrorResponse } from '../../http/schemas.js';
import {
  CreatePresetBody, IdParams, PresetRef, PresetView, RevealBody, RevealedPreset, UpdatePresetBody,
} from './presets.schemas.js';
import type { PresetsService } from './presets.service.js';

export const presetsRoutes: FastifyPluginAsyncTypebox<{ presets: PresetsService }> = async (app, { presets: svc }) => {
  const tags = ['presets'];

  app.get('/', { schema: { tags, response: { 200: Type.Array(PresetView) } } }, async () => svc.list());

  app.post(
    '/',
    { schema: { tags, body: CreatePresetBody, response: { 201: PresetRef, 400: ErrorResponse } } },
    async (req, reply) => reply.code(201).send(await svc.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdatePresetBody,
        response: { 200: PresetRef, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => svc.update(req.actor, req.params.id, req.body),
  );

  app.post(
    '/:id/reveal',
    {
      // A stored secret: an administrator with their password, never the API key.
      config: { adminOnly: true },
      schema: {
        tags,
        params: IdParams,
        body: RevealBody,
        response: { 200: RevealedPreset, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse },
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
