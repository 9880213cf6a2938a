/** `/ws/alerts`: the live socket. The upgrade is accepted, then closed with 4401 on a bad token. */
import websocket from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import type { AdminRow } from '../../db/types.js';
import type { EventBus } from './event-bus.js';

export interface EventsRoutesOptions {
  events: Pick<EventBus, 'on'>;
  /** The admin an access token belongs to, or null when the token is not valid (now). */
  authenticate(token: string): Promise<AdminRow | null>;
}

export const WS_CLOSE_UNAUTHORIZED = 4401;

export const eventsRoutes: FastifyPluginAsync<EventsRoutesOptions> = async (app, { events, authenticate }) => {
  // Registered in this plugin's scope only: its request hooks then cost nothing on other routes.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    '/ws/alerts',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    async (socket, req) => {
      const token = (req.query as Record<string, unknown>)?.token;
      const admin = typeof token === 'string' && token ? await authenticate(token) : null;
      if (!admin) {
        socket.close(WS_CLOSE_UNAUTHORIZED, 'Unauthorized');
        return;
      }
      const off = events.on((event) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
      });
      socket.on('close', off);
      socket.on('error', off);
      // Clients may ping with any message; the socket is server-to-client only.
      socket.on('message', () => {});
    },
  );
};
