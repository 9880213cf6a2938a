/** `/api/settings/messenger/...`: the bot channel endpoints (spec §C), default and offline bot. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../../http/schemas.js';
import type { BotKind } from '../../platform/notifications/bot-credentials.js';
import type { MessengerService } from './messenger.service.js';

const ChatSchema = Type.Object({
  id: Type.Union([Type.Integer(), Type.String()]),
  type: Type.String(),
  title: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
});

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
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
      { schema: { tags: ['messenger'], response: { 200: Type.Object({ success: Type.Boolean() }), ...errors } } },
      async () => service.sendTest(kind),
    );
    app.post(
      `${base}/reveal-token`,
      { schema: { tags: ['messenger'], response: { 200: Type.Object({ key: Type.String(), value: Type.String() }), ...errors } } },
      async (req) => service.revealToken(req.actor, kind),
    );
    app.get(
      `${base}/chats`,
      {
        schema: {
          tags: ['messenger'],
          response: { 200: Type.Object({ chats: Type.Array(ChatSchema), count: Type.Integer() }), ...errors },
        },
      },
      async () => service.chats(kind),
    );
  }
};
