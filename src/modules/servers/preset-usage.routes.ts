import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse, IdParams } from '../../http/schemas.js';
import { PresetServer, PresetUsage, type PresetKind } from './preset-usage.schemas.js';
import type { PresetUsageService } from './preset-usage.service.js';

/** `GET /{id}/servers` under a preset prefix (`/api/presets` or `/api/ssh-key-presets`). */
export const presetServersRoutes: FastifyPluginAsyncTypebox<{ usage: PresetUsageService; kind: PresetKind }> = async (
  app,
  { usage, kind },
) => {
  app.get(
    '/:id/servers',
    {
      schema: {
        tags: [kind === 'password' ? 'presets' : 'ssh-key-presets'],
        description: 'The servers that take their credentials from this preset, by name.',
        params: IdParams,
        response: { 200: Type.Array(PresetServer), 404: ErrorResponse },
      },
    },
    async (req) => usage.servers(kind, req.params.id),
  );
};

/** `GET /api/servers/preset-usage`: how many servers use each preset, for the presets lists. */
export const presetUsageRoutes: FastifyPluginAsyncTypebox<{ usage: PresetUsageService }> = async (app, { usage }) => {
  app.get(
    '/preset-usage',
    {
      schema: {
        tags: ['servers'],
        description: 'How many servers use each password preset and each SSH key preset (unused presets are absent).',
        response: { 200: PresetUsage },
      },
    },
    async () => usage.usage(),
  );
};
