/** `/api/settings/ops-patrol/...`: host patrol readiness and the messenger env sync. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../../http/schemas.js';
import type { PatrolService } from './patrol.service.js';

const EnvStatus = Type.Object({
  env_synced: Type.Boolean(),
  env_file: Type.String(),
  env_exists: Type.Boolean(),
  token_set: Type.Boolean(),
  chat_id_set: Type.Boolean(),
  updated_at: Type.Union([Type.String(), Type.Null()]),
});

export const patrolRoutes: FastifyPluginAsyncTypebox<{ patrol: PatrolService }> = async (app, { patrol: service }) => {
  const tags = ['ops-patrol'];

  app.get(
    '/ops-patrol/status',
    {
      schema: {
        tags,
        response: {
          200: Type.Object({
            messenger_app_configured: Type.Boolean(),
            messenger_layer3_ready: Type.Boolean(),
            messenger_env_synced: Type.Boolean(),
            env_status: EnvStatus,
            db_fallback_enabled: Type.Boolean(),
            cron_install_command: Type.String(),
            health_log_path: Type.String(),
          }),
          401: ErrorResponse,
        },
      },
    },
    async () => service.status(),
  );

  app.post(
    '/ops-patrol/sync-messenger',
    {
      schema: {
        tags,
        response: {
          200: Type.Object({ synced: Type.Boolean(), env_status: EnvStatus, messenger_layer3_ready: Type.Boolean() }),
          400: ErrorResponse,
          401: ErrorResponse,
        },
      },
    },
    async (req) => service.syncMessenger(req.actor),
  );
};
