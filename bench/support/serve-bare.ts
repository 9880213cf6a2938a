/**
 * The baseline for per-request benchmarks, in its own process and started and stopped like
 * `serve-app.ts`: a bare Fastify POST route (JSON body parsed, `{ ok: true }` answered) and a bare
 * GET route answering an admin-shaped object.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/agent/heartbeat', async () => ({ ok: true }));
app.get('/bare', async () => ({ id: 1, username: 'admin', totp_enabled: false, created_at: '2026-01-01T00:00:00.000Z' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, token: '', pid: process.pid })}\n`);

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
