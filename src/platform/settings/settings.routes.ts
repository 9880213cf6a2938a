/**
 * `/api/settings`: list, read, write, and the API key's reveal and rotation. The API key may not
 * write a setting that guards access, reveal itself or rotate itself (403). The fixed routes of the other
 * settings-area modules (allowlist, messenger, wallpapers, patrol) share this prefix; Fastify's
 * router prefers their static segments over `/:key`, which the tests pin down.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../../http/schemas.js';
import { requireAdmin } from '../../http/request-context.js';
import {
  KeyParams,
  PutSettingBody,
  PutSettingResponse,
  RevealBody,
  RevealResponse,
  RotateApiKeyBody,
  SettingSchema,
  SettingsSchemaResponse,
} from './settings.schemas.js';
import { settingsSchema } from './settings-schema.js';
import { optionalBody } from '../../http/optional-body.js';
import type { SettingsService } from './settings.service.js';
import { guardsAccess } from './setting-keys.js';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings: service }) => {
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse };

  app.get(
    '/',
    { schema: { tags: ['settings'], response: { 200: Type.Array(SettingSchema), 401: ErrorResponse } } },
    async () => service.list(),
  );

  // A fixed path: Fastify prefers it over `/:key` (there is no setting named `schema`).
  app.get(
    '/schema',
    { schema: { tags: ['settings'], response: { 200: SettingsSchemaResponse, 401: ErrorResponse } } },
    async () => settingsSchema(),
  );

  app.get(
    '/:key',
    { schema: { tags: ['settings'], params: KeyParams, response: { 200: SettingSchema, ...errors } } },
    async (req) => service.get(req.params.key),
  );

  app.put(
    '/:key',
    {
      // The settings that guard access are an administrator's (marked in setting-keys.ts).
      config: { adminOnly: (req) => guardsAccess((req.params as { key?: string }).key ?? '') },
      schema: {
        tags: ['settings'],
        params: KeyParams,
        body: PutSettingBody,
        response: { 200: PutSettingResponse, ...errors },
      },
    },
    async (req) => service.update(req.actor, req.params.key, req.body.value),
  );

  app.post(
    '/api-key/rotate',
    {
      // An administrator with their password, never the key itself.
      config: { adminOnly: true },
      schema: { tags: ['settings'], body: RotateApiKeyBody, response: { 200: RevealResponse, ...errors, 429: ErrorResponse } },
    },
    async (req) => service.rotateApiKey(req.actor, requireAdmin(req), req.body.current_password),
  );

  app.post(
    '/api-key/reveal',
    {
      config: { adminOnly: true },
      // The body is optional (the spec's call has none); the console always sends the password.
      preValidation: optionalBody,
      schema: { tags: ['settings'], body: RevealBody, response: { 200: RevealResponse, ...errors, 429: ErrorResponse } },
    },
    async (req) => service.revealApiKey(req.actor, requireAdmin(req), req.body.current_password),
  );
};
