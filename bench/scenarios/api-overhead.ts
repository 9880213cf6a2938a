/**
 * Requests/s of an authenticated GET /api/auth/me (JWT check + admin lookup) divided by the
 * requests/s of a bare Fastify 5 route answering the same body, each server alone in a child
 * process, autocannon in this one. The product runs with every production hook on (security
 * headers, rate limiter, console fallback and not-found handler, production logging, auth,
 * metrics); the bare peer is Fastify's defaults (logger off). Goal: >= 0.8, median of the rounds'
 * ratios. `details.per_hook_us` is where the product's time per request goes (a CPU-profiled run).
 */
import autocannon from 'autocannon';
import { median, round, runIfMain, type Scenario } from '../lib.js';
import { startChildApp, type ChildApp } from '../support/child-app.js';
import { pinningNote } from '../support/cpu-pin.js';
import { loadChild, profiledRun, summarizeRounds, type Loaded, type Side } from '../support/peer-rounds.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 20;
const GOAL = 0.8;

async function measure(child: ChildApp, path: string, headers: Record<string, string>): Promise<Loaded> {
  const url = `${child.url}${path}`;
  // Warm-up so the JIT and the caches are hot before the measured run.
  await autocannon({ url, connections: 10, amount: 5000, headers });
  return loadChild(child, () => autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers }));
}

async function measureApp(nodeArgs: string[] = []): Promise<Loaded> {
  const svc = await startChildApp('serve-app.ts', {}, nodeArgs);
  try {
    return await measure(svc, '/api/auth/me', { authorization: `Bearer ${svc.token}` });
  } finally {
    await svc.stop();
  }
}

/**
 * The bare route, then (for reference only) the same route with the product's security headers:
 * helmet's full set (the console's answers) and the API set (every answer under /api/).
 */
async function measureBare(): Promise<{ bare: Loaded; secure: Loaded; apiSecure: Loaded }> {
  const bare = await startChildApp('serve-bare.ts');
  try {
    return {
      bare: await measure(bare, '/bare', {}),
      secure: await measure(bare, '/bare-secure', {}),
      apiSecure: await measure(bare, '/bare-api-secure', {}),
    };
  } finally {
    await bare.stop();
  }
}

const side = ({ rps, p99_ms, cpu_us_per_req }: Loaded): Side => ({ rps, p99_ms, cpu_us_per_req });

export const scenario: Scenario = {
  name: 'api-overhead',
  async run() {
    const rounds: Array<{ app: Side; bare: Side }> = [];
    const secure: Side[] = [];
    const apiSecure: Side[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so a drift of the machine's load favours neither.
      const app = i % 2 === 1 ? side(await measureApp()) : null;
      const b = await measureBare();
      secure.push(side(b.secure));
      apiSecure.push(side(b.apiSecure));
      rounds.push({ bare: side(b.bare), app: app ?? side(await measureApp()) });
    }
    const s = summarizeRounds(rounds);
    const secureRps = median(secure.map((x) => x.rps));
    const apiSecureRps = median(apiSecure.map((x) => x.rps));
    const perHook = await profiledRun(
      (args) => startChildApp('serve-app.ts', {}, args),
      (svc) => measure(svc, '/api/auth/me', { authorization: `Bearer ${svc.token}` }),
    );
    return {
      value: s.value,
      unit: 'req/s',
      baseline: s.baseline,
      ratio: s.ratio,
      goal: `>= ${GOAL} (median of the rounds' ratios)`,
      pass: s.ratio >= GOAL,
      rounds: s.rounds,
      details: {
        ...s.details,
        per_hook_us: perHook,
        // What the security headers cost a bare route by themselves. Compare CPU time: req/s
        // swings with the load generator (on a loaded two-core machine it fell below the
        // product's, with the same bytes in one writev). Helmet's full twelve (the console's):
        bare_with_security_headers: {
          rps: round(secureRps, 0),
          cpu_us_per_req: median(secure.map((x) => x.cpu_us_per_req)),
          ratio_to_bare: round(secureRps / s.baseline, 3),
        },
        // The six an answer under /api/ carries, which the measured route sends: the ceiling of the ratio.
        bare_with_api_security_headers: {
          rps: round(apiSecureRps, 0),
          cpu_us_per_req: median(apiSecure.map((x) => x.cpu_us_per_req)),
          ratio_to_bare: round(apiSecureRps / s.baseline, 3),
        },
        duration_s: DURATION_S,
        connections: CONNECTIONS,
        setup: 'each server alone in a child process (tsx), autocannon in the parent; product: production logging (info, to /dev/null), SQLite + memory cache',
        pinned: pinningNote(),
        baseline_is: `bare Fastify 5 GET route answering the same admin-shaped JSON, logger off (Fastify's default)`,
      },
    };
  },
};

await runIfMain(import.meta.url, scenario);
