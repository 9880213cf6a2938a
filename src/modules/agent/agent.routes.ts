/**
 * The agent's own endpoints (public: the agent has no admin login). The heartbeat is
 * authenticated by its per-server token before the body is even validated, so a wrong token is
 * a 401 whatever it sends.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AgentService } from './agent.service.js';
import { ErrorResponse } from '../../http/schemas.js';
import { AGENT_SCRIPT } from './agent-script.js';
import type { AgentServer } from './agent-tokens.js';
import { HeartbeatBody, HeartbeatOk, ValidationError } from './agent.schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    agentServer: AgentServer | null;
  }
}

const OK = { ok: true as const };

export const agentRoutes: FastifyPluginAsyncTypebox<{ agent: AgentService }> = async (app, { agent }) => {
  const tags = ['agent'];
  app.decorateRequest('agentServer', null);

  app.post(
    '/heartbeat',
    {
      config: { public: true },
      // Thousands of these a second: only problems are worth a log line.
      logLevel: 'warn',
      // A callback hook: a token seen within the last minute is checked without a promise.
      onRequest: (req, _reply, done) => {
        const known = agent.authenticateKnown(req.headers.authorization);
        if (known) {
          req.agentServer = known;
          return done();
        }
        agent.authenticate(req.headers.authorization).then((server) => {
          req.agentServer = server;
          done();
        }, done);
      },
      schema: {
        tags,
        security: [],
        body: HeartbeatBody,
        response: { 200: HeartbeatOk, 401: ErrorResponse, 422: ValidationError, 503: ErrorResponse },
      },
    },
    // Not async: a heartbeat with nothing to wait for (most of them) is answered without a promise.
    (req) => {
      const pending = agent.ingest(req.agentServer!, req.body);
      return pending ? pending.then(() => OK) : OK;
    },
  );

  app.get(
    '/install.sh',
    { config: { public: true }, schema: { tags, security: [], response: { 200: Type.String() } } },
    async (_req, reply) =>
      reply
        .type('text/x-shellscript; charset=utf-8')
        .header('content-disposition', 'inline; filename="install.sh"')
        .header('cache-control', 'no-store')
        .send(AGENT_SCRIPT),
  );
};
