/**
 * Sustained agent heartbeats/s from 2,000 simulated servers on the embedded default (SQLite +
 * in-process cache). The app runs in a child process (`bench/support/serve-app.ts`) so that
 * autocannon, in this process, does not take half of its CPU; every request carries the token of
 * the next server in turn. Goal: >= 5,000/s with p99 <= 20 ms, every answer a 200, and every
 * server's heartbeat time and status written.
 */
import autocannon from 'autocannon';
import { round, runIfMain, type Scenario } from '../lib.js';
import { startChildApp } from '../support/child-app.js';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 2000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const GOAL_RPS = 5000;
const GOAL_P99_MS = 20;

/** Creates the servers and their agent tokens through the API, a few requests at a time. */
async function fleet(url: string, token: string): Promise<string[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const tokens: string[] = new Array(SERVERS);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < SERVERS; i = next++) {
      const created = await fetch(`${url}/api/servers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `bench-${i}`, host: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}` }),
      });
      if (created.status !== 201) throw new Error(`create server: HTTP ${created.status}`);
      const { id } = (await created.json()) as { id: number };
      const rotated = await fetch(`${url}/api/servers/${id}/agent-token`, {
        method: 'POST',
        headers: { authorization: headers.authorization },
      });
      if (rotated.status !== 200) throw new Error(`agent-token: HTTP ${rotated.status}`);
      tokens[i] = ((await rotated.json()) as { agent_token: string }).agent_token;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tokens;
}

let failure: string | null = null;

function load(url: string, tokens: string[], duration: number): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/agent/heartbeat',
        setupRequest: (req) => {
          const token = tokens[i++ % tokens.length];
          const r = i % 100;
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ cpu: 20 + r / 2, mem: 40 + r / 4, disk: 55, ts: Math.floor(Date.now() / 1000), load: 0.4, uptime: 86_400 }),
          };
        },
        onResponse: (status, body) => {
          if (status !== 200 && !failure) failure = `HTTP ${status}: ${String(body).slice(0, 200)}`;
        },
      },
    ],
  });
}

/** The same load against a bare Fastify POST route: what this machine can do at all right now. */
async function bareBaseline(tokens: string[]): Promise<autocannon.Result> {
  const bare = await startChildApp('serve-bare.ts');
  try {
    await load(bare.url, tokens, 2);
    return await load(bare.url, tokens, DURATION_S);
  } finally {
    await bare.stop();
  }
}

export const scenario: Scenario = {
  name: 'heartbeat-ingest',
  async run() {
    const svc = await startChildApp('serve-app.ts');
    const { url, token } = svc;
    try {
      const tokens = await fleet(url, token);
      await load(url, tokens, 2); // warm-up: JIT, token cache, first (status-changing) writes
      const r = await load(url, tokens, DURATION_S);
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx answers and ${r.errors} errors (first: ${failure})`);
      await new Promise((res) => setTimeout(res, 1_500)); // one batch flush
      const servers = (await (await fetch(`${url}/api/servers`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{
        status: string;
        last_heartbeat_at: string | null;
      }>;
      const written = servers.filter((s) => s.status === 'online' && s.last_heartbeat_at).length;
      const rps = r.requests.average;
      await svc.stop();
      const bare = await bareBaseline(tokens);
      return {
        value: round(rps, 0),
        unit: 'heartbeats/s',
        baseline: round(bare.requests.average, 0),
        ratio: round(rps / bare.requests.average, 3),
        goal: `>= ${GOAL_RPS}/s with p99 <= ${GOAL_P99_MS} ms`,
        pass: rps >= GOAL_RPS && r.latency.p99 <= GOAL_P99_MS && written === SERVERS,
        details: {
          p50_ms: r.latency.p50,
          p99_ms: r.latency.p99,
          max_ms: r.latency.max,
          total_requests: r.requests.total,
          servers: SERVERS,
          servers_written: written,
          bare_fastify_p99_ms: bare.latency.p99,
          connections: CONNECTIONS,
          duration_s: DURATION_S,
          setup: 'app in a child process (tsx), autocannon in the parent; SQLite + memory cache',
          baseline: 'bare Fastify POST route (JSON body, { ok: true }) in a child process, same load',
        },
      };
    } finally {
      await svc.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
