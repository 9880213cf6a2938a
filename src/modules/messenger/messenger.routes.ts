/** `/api/settings/messenger/...`: the bot channel endpoints, default and offline bot. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { optionalBody } from '../../http/optional-body.js';
import { requireAdmin } from '../../http/request-context.js';
import { ErrorResponse } from '../../http/schemas.js';
import type { BotKind } from '../../platform/notifications/bot-credentials.js';
import type { MessengerService } from './messenger.service.js';
import { ChatList, RevealBody, RevealedToken, TestSent } from './messenger.schemas.js';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  500: ErrorResponse,
  502: ErrorResponse,
};

export const messengerRoutes: FastifyPluginAsyncTypebox<{ messenger: MessengerService }> = async (app, { messenger: service }) => {

  const variants: Array<[string, BotKind]> = [
    ['/messenger', 'default'],
    ['/messenger/offline', 'offline'],
  ];
  for (const [base, kind] of variants) {
    app.post(
      `${base}/test`,
      { schema: { tags: ['messenger'], response: { 200: TestSent, ...errors } } },
      async () => service.sendTest(kind),
    );
    app.post(
      `${base}/reveal-token`,
      // A stored secret: an administrator's, never the API key's. The body is optional (the
      // spec's call has none); with `current_password` the password is checked first.
      {
        config: { adminOnly: true },
        preValidation: optionalBody,
        schema: { tags: ['messenger'], body: RevealBody, response: { 200: RevealedToken, ...errors, 429: ErrorResponse } },
      },
      async (req) => service.revealToken(req.actor, kind, requireAdmin(req), req.body.current_password),
    );
    app.get(
      `${base}/chats`,
      {
        schema: {
          tags: ['messenger'],
          response: { 200: ChatList, ...errors },
        },
      },
      async () => service.chats(kind),
    );
  }
};
