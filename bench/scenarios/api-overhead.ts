/**
 * Requests/s of an authenticated GET /api/auth/me (JWT check + admin lookup) divided by the
 * requests/s of a bare Fastify route, same process, same load generator (autocannon).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { round, runIfMain, type Scenario } from '../lib.js';
import { startBenchApp } from '../support/app.js';

const DURATION_S = 5;

async function load(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections: 20, pipelining: 1, duration: DURATION_S, headers });
}

export const scenario: Scenario = {
  name: 'api-overhead',
  async run() {
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => ({ id: 1, username: 'admin', totp_enabled: false, created_at: '2026-01-01T00:00:00.000Z' }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as { port: number }).port;
    const svc = await startBenchApp();
    try {
      // Warm both paths so JIT and the SQLite page cache are hot.
      await autocannon({ url: `http://127.0.0.1:${barePort}/bare`, connections: 10, amount: 2000 });
      await autocannon({ url: `${svc.url}/api/auth/me`, connections: 10, amount: 2000, headers: { authorization: `Bearer ${svc.token}` } });
      const base = await load(`http://127.0.0.1:${barePort}/bare`);
      const me = await load(`${svc.url}/api/auth/me`, { authorization: `Bearer ${svc.token}` });
      if (me.non2xx > 0) throw new Error(`${me.non2xx} non-2xx answers from /api/auth/me`);
      const ratio = me.requests.average / base.requests.average;
      return {
        value: round(me.requests.average, 0),
        unit: 'req/s',
        baseline: round(base.requests.average, 0),
        ratio: round(ratio, 3),
        goal: '>= 0.5',
        pass: ratio >= 0.5,
        details: { me_p99_ms: me.latency.p99, bare_p99_ms: base.latency.p99, duration_s: DURATION_S, connections: 20 },
      };
    } finally {
      await svc.close();
      await bare.close();
    }
  },
};

await runIfMain(import.meta.url, scenario);
