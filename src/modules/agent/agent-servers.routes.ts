/** Server-scoped agent actions, registered under /api/servers next to the servers module. */
import { IdParams, ErrorResponse } from '../../http/schemas.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AgentService } from './agent.service.js';
import type { AgentInstaller } from './agent-installer.service.js';
import { AgentToken, InstallBody, InstallResult, ValidationError } from './agent.schemas.js';

export const agentServerRoutes: FastifyPluginAsyncTypebox<{ agent: AgentService; installer: AgentInstaller }> = async (app, { agent, installer }) => {
  const tags = ['agent'];

  app.post(
    '/:id/agent-token',
    { schema: { tags, params: IdParams, response: { 200: AgentToken, 404: ErrorResponse, 422: ValidationError } } },
    async (req) => agent.rotateToken(req.actor, req.params.id),
  );

  app.post(
    '/:id/install-agent',
    {
      schema: {
        tags,
        params: IdParams,
        body: InstallBody,
        response: { 200: InstallResult, 400: ErrorResponse, 404: ErrorResponse, 422: ValidationError, 502: ErrorResponse },
      },
    },
    async (req) => installer.install(req.actor, req.params.id, req.body ?? {}),
  );
};
