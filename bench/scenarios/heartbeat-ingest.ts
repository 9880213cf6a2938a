/**
 * Sustained agent heartbeats/s from 2,000 simulated servers on the embedded default (SQLite +
 * in-process cache), divided by the requests/s of a bare Fastify 5 POST route (JSON body parsed,
 * `{ ok: true }` answered) under the same load. Each server is alone in a child process, autocannon
 * in this one; every request carries the token of the next server in turn. Both servers stay up
 * and are measured in alternating order, round after round; the figures are the medians (the
 * ratio is the median of the rounds' own ratios). The product runs every production hook and logs
 * as production does. Goal: >= 0.7 × bare, every answer a 200, every server's heartbeat time and
 * status written, and an absolute floor of 5,000/s with p99 <= 20 ms. `details.per_hook_us` is
 * where the time goes (a CPU-profiled run).
 */
import autocannon from 'autocannon';
import { median, round, runIfMain, type Scenario } from '../lib.js';
import { startChildApp, type ChildApp } from '../support/child-app.js';
import { pinningNote } from '../support/cpu-pin.js';
import { loadChild, profiledRun, summarizeRounds, type Loaded, type Side } from '../support/peer-rounds.js';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 2000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Servers of the profiled run's own fleet: the per-request path does not depend on the count. */
const PROFILED_SERVERS = Math.min(SERVERS, 500);
const GOAL_RATIO = 0.7;
const GOAL_RPS = 5000;
const GOAL_P99_MS = 20;

/** Creates the servers and their agent tokens through the API, a few requests at a time. */
export async function fleet(url: string, token: string, count = SERVERS): Promise<string[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const tokens: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
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

const HEARTBEAT = '/api/agent/heartbeat';
/** serve-bare.ts's reference route: the bare route plus the product's framework stack, no product code. */
const BARE_STACK = '/bare-stack/heartbeat';

function load(url: string, tokens: string[], duration: number, path = HEARTBEAT): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration,
    requests: [
      {
        method: 'POST',
        path,
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

/** A warm-up (JIT, token cache, the first status-changing writes), then the measured load. */
export async function measure(child: ChildApp, tokens: string[], path = HEARTBEAT): Promise<Loaded> {
  await load(child.url, tokens, 2, path);
  try {
    return await loadChild(child, () => load(child.url, tokens, DURATION_S, path));
  } catch (err) {
    throw new Error(`${(err as Error).message} (first: ${failure})`);
  }
}

/** How many servers the product shows online with a heartbeat time, after one batch flush. */
async function serversWritten(svc: ChildApp): Promise<number> {
  await new Promise((res) => setTimeout(res, 1_500));
  const res = await fetch(`${svc.url}/api/servers`, { headers: { authorization: `Bearer ${svc.token}` } });
  const servers = (await res.json()) as Array<{ status: string; last_heartbeat_at: string | null }>;
  return servers.filter((s) => s.status === 'online' && s.last_heartbeat_at).length;
}

const side = ({ rps, p99_ms, cpu_us_per_req }: Loaded): Side => ({ rps, p99_ms, cpu_us_per_req });

export const scenario: Scenario = {
  name: 'heartbeat-ingest',
  async run() {
    const svc = await startChildApp('serve-app.ts');
    const bare = await startChildApp('serve-bare.ts');
    const rounds: Array<{ app: Side; bare: Side }> = [];
    const stack: Side[] = [];
    let written: number;
    try {
      const tokens = await fleet(svc.url, svc.token);
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate which goes first, so a drift of the machine's load favours neither.
        if (i % 2 === 0) {
          const app = side(await measure(svc, tokens));
          rounds.push({ app, bare: side(await measure(bare, tokens)) });
        } else {
          const b = side(await measure(bare, tokens));
          rounds.push({ bare: b, app: side(await measure(svc, tokens)) });
        }
        stack.push(side(await measure(bare, tokens, BARE_STACK)));
      }
      written = await serversWritten(svc);
    } finally {
      await svc.stop();
      await bare.stop();
    }
    const s = summarizeRounds(rounds);
    const perHook = await profiledRun(
      (args) => startChildApp('serve-app.ts', {}, args),
      async (child) => measure(child, await fleet(child.url, child.token, PROFILED_SERVERS)),
    );
    const p99 = s.details.p99_ms as number;
    return {
      value: s.value,
      unit: 'heartbeats/s',
      baseline: s.baseline,
      ratio: s.ratio,
      goal: `>= ${GOAL_RATIO} x bare Fastify, >= ${GOAL_RPS}/s with p99 <= ${GOAL_P99_MS} ms, every server written`,
      pass: s.ratio >= GOAL_RATIO && s.value >= GOAL_RPS && p99 <= GOAL_P99_MS && written === SERVERS,
      rounds: s.rounds,
      details: {
        ...s.details,
        per_hook_us: perHook,
        // What the framework stack costs with no product code at all: compare CPU per request
        // (req/s swings with the load generator). Its ratio to bare is the ceiling of this one.
        bare_with_product_stack: {
          rps: round(median(stack.map((x) => x.rps)), 0),
          cpu_us_per_req: median(stack.map((x) => x.cpu_us_per_req)),
          cpu_ratio_to_bare: round((s.details.bare_cpu_us_per_req as number) / median(stack.map((x) => x.cpu_us_per_req)), 3),
        },
        per_hook_servers: PROFILED_SERVERS,
        servers: SERVERS,
        servers_written: written,
        connections: CONNECTIONS,
        duration_s: DURATION_S,
        setup: 'each server alone in a child process (tsx), autocannon in the parent; product: production logging (info, to /dev/null), SQLite + memory cache',
        pinned: pinningNote(),
        baseline_is: 'bare Fastify 5 POST route (JSON body parsed, { ok: true }), logger off (Fastify default), same load and tokens',
        rps_goal_met: round(s.value, 0) >= GOAL_RPS,
      },
    };
  },
};

await runIfMain(import.meta.url, scenario);
