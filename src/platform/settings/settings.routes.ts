/**
 * `/api/settings`: list, read, write and the API key reveal. The fixed routes of the other
 * settings-area modules (allowlist, messenger, wallpapers, patrol) share this prefix; Fastify's
 * router prefers their static segments over `/:key`, which the tests pin down.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { ErrorResponse } from '../../http/schemas.js';
import { PatrolEnvFile } from '../../modules/patrol/patrol-env.js';
import { SecretSettings } from './secret-settings.js';
import { KeyParams, PutSettingBody, PutSettingResponse, RevealResponse, SettingSchema } from './settings.schemas.js';
import { SettingsService } from './settings.service.js';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const envFile = new PatrolEnvFile(c.config.dataDir);
  const service = new SettingsService({
    settings: c.settings,
    secrets: new SecretSettings(c.settings, c.cipher, c.log),
    audit: c.audit,
    log: c.log,
    databaseUrl: c.config.databaseUrl,
    startedAt: new Date().toISOString(),
    syncPatrolEnv: (token, chatId) => envFile.write(token, chatId),
  });
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse };

  app.get(
    '/',
    { schema: { tags: ['settings'], response: { 200: Type.Array(SettingSchema), 401: ErrorResponse } } },
    async () => service.list(),
  );

  app.get(
    '/:key',
    { schema: { tags: ['settings'], params: KeyParams, response: { 200: SettingSchema, ...errors } } },
    async (req) => service.get(req.params.key),
  );

  app.put(
    '/:key',
    {
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
    '/api-key/reveal',
    { schema: { tags: ['settings'], response: { 200: RevealResponse, ...errors } } },
    async (req) => service.revealApiKey(req.actor),
  );
};
