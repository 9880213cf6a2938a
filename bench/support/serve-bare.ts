/**
 * The baseline for per-request benchmarks, in its own process and started and stopped like
 * `serve-app.ts`: a bare Fastify POST route (JSON body parsed, `{ ok: true }` answered), a bare
 * GET route answering an admin-shaped object, and that route with the security headers; and, as
 * a reference only, the POST route with the product's framework stack (see below).
 */
import Fastify from 'fastify';
import { buildSecurityHeaderSets } from '../../src/http/security-headers.js';
import { installValidation } from '../../src/http/validation.js';
import { HeartbeatBody, HeartbeatOk } from '../../src/modules/agent/agent.schemas.js';
import { serveUntilStopped } from './serve-child.js';

const ADMIN = { id: 1, username: 'admin', totp_enabled: false, created_at: '2026-01-01T00:00:00.000Z' };
const { full: securityHeaders, api: apiSecurityHeaders } = buildSecurityHeaderSets();

const app = Fastify({ logger: false });
app.post('/api/agent/heartbeat', async () => ({ ok: true }));
app.get('/bare', async () => ADMIN);
// Not baselines: the same route plus the product's security headers, to show what sending them
// costs by itself (the share of the gap no hook can remove): helmet's full twelve (what the
// console's answers carry) and the six an answer under /api/ carries.
app.get('/bare-secure', { onRequest: (_req, reply, done) => done(void reply.headers(securityHeaders)) }, async () => ADMIN);
app.get('/bare-api-secure', { onRequest: (_req, reply, done) => done(void reply.headers(apiSecurityHeaders)) }, async () => ADMIN);
// Not a baseline either: the heartbeat route with what the product's framework stack adds and no
// product code (the product's body validator and schema, the response schema, the security
// headers of an /api/ answer): the ceiling of the heartbeat ratio before any token check or write.
installValidation(app);
app.post(
  '/bare-stack/heartbeat',
  {
    schema: { body: HeartbeatBody, response: { 200: HeartbeatOk } },
    onRequest: (_req, reply, done) => done(void reply.headers(apiSecurityHeaders)),
  },
  async () => ({ ok: true as const }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
serveUntilStopped({ url: `http://127.0.0.1:${port}`, token: '', pid: process.pid }, () => app.close());
