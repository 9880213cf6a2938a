import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../../http/request-context.js';
import { ErrorResponse } from '../../http/schemas.js';
import {
  CreateSshKeyPresetBody, IdParams, PresetRef, RevealBody, RevealedSshKeyPreset, SshKeyPresetView,
  UpdateSshKeyPresetBody,
} from './ssh-key-presets.schemas.js';
import type { SshKeyPresetsService } from './ssh-key-presets.service.js';

export const sshKeyPresetsRoutes: FastifyPluginAsyncTypebox<{ sshKeyPresets: SshKeyPresetsService }> = async (
  app,
  { sshKeyPresets: svc },
) => {
  const tags = ['ssh-key-presets'];

  app.get('/', { schema: { tags, response: { 200: Type.Array(SshKeyPresetView) } } }, async () => svc.list());

  app.post(
    '/',
    { schema: { tags, body: CreateSshKeyPresetBody, response: { 201: PresetRef, 400: ErrorResponse } } },
    async (req, reply) => reply.code(201).send(await svc.create(req.actor, req.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateSshKeyPresetBody,
        response: { 200: PresetRef, 400: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse },
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
        response: { 200: RevealedSshKeyPreset, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 500: ErrorResponse },
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
