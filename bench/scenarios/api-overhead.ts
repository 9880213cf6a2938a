/**
 * Requests/s of an authenticated GET /api/auth/me (JWT check + admin lookup) divided by the
 * requests/s of a bare Fastify route, as the issue defines it: both servers started in this same
 * process and loaded by the same autocannon. Because the generator then shares the servers' CPU,
 * the stricter figure — each server alone in a child process — is measured too and reported in
 * `details`.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { round, runIfMain, type Scenario } from '../lib.js';
import { startBenchApp } from '../support/app.js';
import { startChildApp } from '../support/child-app.js';

const DURATION_S = 6;
const CONNECTIONS = 20;
const BARE_BODY = { id: 1, username: 'admin', totp_enabled: false, created_at: '2026-01-01T00:00:00.000Z' };

async function measure(url: string, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  // Warm-up so the JIT and the SQLite page cache are hot before the measured run.
  await autocannon({ url, connections: 10, amount: 3000, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx answers from ${url}`);
  return r;
}

async function sameProcess(): Promise<{ me: autocannon.Result; bare: autocannon.Result }> {
  const bareApp = Fastify({ logger: false });
  bareApp.get('/bare', async () => BARE_BODY);
  await bareApp.listen({ port: 0, host: '127.0.0.1' });
  const svc = await startBenchApp();
  try {
    const bare = await measure(`http://127.0.0.1:${(bareApp.server.address() as { port: number }).port}/bare`);
    const me = await measure(`${svc.url}/api/auth/me`, { authorization: `Bearer ${svc.token}` });
    return { me, bare };
  } finally {
    await svc.close();
    await bareApp.close();
  }
}

async function childProcesses(): Promise<{ me: autocannon.Result; bare: autocannon.Result }> {
  const bareChild = await startChildApp('serve-bare.ts');
  let bare: autocannon.Result;
  try {
    bare = await measure(`${bareChild.url}/bare`);
  } finally {
    await bareChild.stop();
  }
  const svc = await startChildApp('serve-app.ts');
  try {
    return { me: await measure(`${svc.url}/api/auth/me`, { authorization: `Bearer ${svc.token}` }), bare };
  } finally {
    await svc.stop();
  }
}

export const scenario: Scenario = {
  name: 'api-overhead',
  async run() {
    const same = await sameProcess();
    const split = await childProcesses();
    const ratio = same.me.requests.average / same.bare.requests.average;
    return {
      value: round(same.me.requests.average, 0),
      unit: 'req/s',
      baseline: round(same.bare.requests.average, 0),
      ratio: round(ratio, 3),
      goal: '>= 0.5',
      pass: ratio >= 0.5,
      details: {
        me_p99_ms: same.me.latency.p99,
        bare_p99_ms: same.bare.latency.p99,
        separate_processes: {
          me_rps: round(split.me.requests.average, 0),
          bare_rps: round(split.bare.requests.average, 0),
          ratio: round(split.me.requests.average / split.bare.requests.average, 3),
        },
        duration_s: DURATION_S,
        connections: CONNECTIONS,
      },
    };
  },
};

await runIfMain(import.meta.url, scenario);
