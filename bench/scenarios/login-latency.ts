/**
 * p50 of a successful login through the API (Argon2id check, JWT pair issued, audit row written)
 * against its floor: one Argon2id verify of a stored hash at the service's parameters
 * (m=19456 KiB, t=2, p=1, as in src/core/passwords.ts), the very call a login makes, with the same
 * package, in the same process, interleaved with the logins. Each figure is the median of the
 * rounds' p50s. Goal: login p50 <= 1.3 x verify p50.
 */
import http from 'node:http';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { median, percentile, round, runIfMain, type Scenario } from '../lib.js';
import { BENCH_ADMIN, startBenchApp } from '../support/app.js';

const ROUNDS = 5;
const PER_ROUND = 10;
const WARMUP = 3;
/** The service's parameters (src/core/passwords.ts); the peer must work exactly as hard. */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const scenario: Scenario = {
  name: 'login-latency',
  async run() {
    const svc = await startBenchApp();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // node:http on one kept-alive socket (the agent above): undici's fetch adds ~0.7 ms of
      // client work per request in this same process, which is the benchmark's cost, not the login's.
      const body = JSON.stringify(BENCH_ADMIN);
      const post = () =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            `${svc.url}/api/auth/login`,
            { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      const login = async (): Promise<number> => {
        const t0 = performance.now();
        const status = await post();
        if (status !== 200) throw new Error(`login answered ${status}`);
        return performance.now() - t0;
      };
      // A login verifies the password against the stored hash; the peer does the same operation.
      const stored = await hash(BENCH_ADMIN.password, ARGON2);
      const argon = async (): Promise<number> => {
        const t0 = performance.now();
        if (!(await verify(stored, BENCH_ADMIN.password))) throw new Error('argon2 verify refused the password');
        return performance.now() - t0;
      };
      for (let i = 0; i < WARMUP; i++) {
        await login();
        await argon();
      }
      const rounds: Array<{ login: number[]; verify: number[] }> = [];
      for (let r = 0; r < ROUNDS; r++) {
        const x = { login: [] as number[], verify: [] as number[] };
        // Alternate which goes first within the pair, so neither always runs on a just-warmed cache.
        for (let i = 0; i < PER_ROUND; i++) {
          if (i % 2 === 0) {
            x.login.push(await login());
            x.verify.push(await argon());
          } else {
            x.verify.push(await argon());
            x.login.push(await login());
          }
        }
        rounds.push(x);
      }
      const loginP50s = rounds.map((x) => percentile(x.login, 50));
      const verifyP50s = rounds.map((x) => percentile(x.verify, 50));
      const value = median(loginP50s);
      const baseline = median(verifyP50s);
      const ratio = value / baseline;
      return {
        value: round(value),
        unit: 'ms',
        baseline: round(baseline),
        ratio: round(ratio, 2),
        goal: '<= 1.3 (login p50 / one Argon2id verify p50 at the same parameters)',
        pass: ratio <= 1.3,
        rounds: ROUNDS,
        details: {
          login_p95_ms: round(percentile(rounds.flatMap((x) => x.login), 95)),
          verify_p95_ms: round(percentile(rounds.flatMap((x) => x.verify), 95)),
          round_p50s_ms: { login: loginP50s.map((v) => round(v)), verify: verifyP50s.map((v) => round(v)) },
          per_round: PER_ROUND,
          argon2: 'argon2id verify of a stored hash, m=19456 KiB t=2 p=1 (@node-rs/argon2, same process)',
        },
      };
    } finally {
      agent.destroy();
      await svc.close();
    }
  },
};

await runIfMain(import.meta.url, scenario);
