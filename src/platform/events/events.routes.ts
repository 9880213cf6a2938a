/**
 * `/ws/alerts`: the live socket. The upgrade is accepted, then closed with 4401 on a bad token, and
 * later with 4401 as soon as the token stops being valid: it expires, or its admin changes
 * password (token_version) or is deleted. Alerts and script output must not outlive the token.
 */
import websocket from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import type { EventBus } from './event-bus.js';

export interface SocketSession {
  admin: { id: number };
  /** When the access token expires (ms since the epoch). */
  expiresAtMs: number;
}

export interface EventsRoutesOptions {
  events: Pick<EventBus, 'on'>;
  /** The session an access token opens, or null when the token is not valid (now). */
  authenticate(token: string): Promise<SocketSession | null>;
  /** Called back after any change to an admin on any process (null: any admin may have changed). */
  onAdminChanged(listener: (adminId: number | null) => void): () => void;
  /** Re-checks each socket's token this often even without a change message (a lost message). */
  recheckMs?: number;
}

export const WS_CLOSE_UNAUTHORIZED = 4401;
const RECHECK_MS = 15_000;
// setTimeout's longest delay; a longer-lived token is caught by the periodic re-check.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const eventsRoutes: FastifyPluginAsync<EventsRoutesOptions> = async (app, opts) => {
  const { events, authenticate, onAdminChanged } = opts;
  // Registered in this plugin's scope only: its request hooks then cost nothing on other routes.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    '/ws/alerts',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    async (socket, req) => {
      const query = (req.query as Record<string, unknown>) ?? {};
      const token = typeof query.token === 'string' ? query.token : '';
      const cleanups: Array<() => void> = [];
      const cleanup = () => {
        for (const fn of cleanups.splice(0)) fn();
      };
      const refuse = () => {
        cleanup();
        if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
          socket.close(WS_CLOSE_UNAUTHORIZED, 'Unauthorized');
        }
      };
      socket.on('close', cleanup);
      socket.on('error', cleanup);

      // Listening before the first check: a change that lands while it runs is not missed.
      let adminId: number | null = null;
      let changedMeanwhile = false;
      const recheck = async () => {
        try {
          if (!(await authenticate(token))) refuse();
        } catch (err) {
          // The database cannot answer now; the next change or re-check tries again.
          req.log.warn({ err }, 'live socket token re-check failed');
        }
      };
      cleanups.push(
        onAdminChanged((id) => {
          if (adminId === null) changedMeanwhile = true;
          else if (id === null || id === adminId) void recheck();
        }),
      );

      const session = token ? await authenticate(token).catch(() => null) : null;
      if (!session || socket.readyState !== socket.OPEN) return refuse();
      adminId = session.admin.id;
      if (changedMeanwhile) await recheck();
      if (socket.readyState !== socket.OPEN) return refuse();

      const expiry = setTimeout(refuse, Math.min(MAX_TIMER_MS, Math.max(0, session.expiresAtMs - Date.now())));
      const periodic = setInterval(() => void recheck(), opts.recheckMs ?? RECHECK_MS);
      periodic.unref();
      cleanups.push(
        () => clearTimeout(expiry),
        () => clearInterval(periodic),
        events.on((event) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
        }),
      );
      // Clients may ping with any message; the socket is server-to-client only.
      socket.on('message', () => {});
    },
  );
};
