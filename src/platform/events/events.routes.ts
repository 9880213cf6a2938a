/** `/ws/alerts`: the live socket. The upgrade is accepted, then closed with 4401 on a bad token. */
import type { FastifyPluginAsync } from 'fastify';
import websocket from '@fastify/websocket';
import type { Container } from '../../container.js';

export const WS_CLOSE_UNAUTHORIZED = 4401;

export const eventsRoutes: FastifyPluginAsync<{ c: Container }> = async (app, { c }) => {
  // Registered in this plugin's scope only: its request hooks then cost nothing on other routes.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    '/ws/alerts',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    async (socket, req) => {
      const token = (req.query as Record<string, unknown>)?.token;
      const admin = typeof token === 'string' && token ? await c.auth.authenticate(token) : null;
      if (!admin) {
        socket.close(WS_CLOSE_UNAUTHORIZED, 'Unauthorized');
        return;
      }
      const off = c.events.on((event) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
      });
      socket.on('close', off);
      socket.on('error', off);
      // Clients may ping with any message; the socket is server-to-client only.
      socket.on('message', () => {});
    },
  );
};
