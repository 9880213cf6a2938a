/**
 * p50 of a successful login through the API (Argon2id check, JWT pair issued, audit row written)
 * against its floor: one Argon2id hash at the service's parameters (m=19456 KiB, t=2, p=1, as in
 * src/core/passwords.ts) computed in the same process, interleaved with the logins. Each figure
 * is the median of the rounds' p50s. Goal: login p50 <= 1.3 x hash p50.
 */
import { Algorithm, hash } from '@node-rs/argon2';
import { median, percentile, round, runIfMain, type Scenario } from '../lib.js';
import { BENCH_ADMIN, startBenchApp } from '../support/app.js';

const ROUNDS = 5;
const PER_ROUND = 10;
const WARMUP = 3;
/** The service's parameters (src/core/passwords.ts); the peer must hash exactly as hard. */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const scenario: Scenario = {
  name: 'login-latency',
  async run() {
    const svc = await startBenchApp();
    try {
      const login = async (): Promise<number> => {
        const t0 = performance.now();
        const res = await fetch(`${svc.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(BENCH_ADMIN),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`login answered ${res.status}`);
        return performance.now() - t0;
      };
      const argon = async (): Promise<number> => {
        const t0 = performance.now();
        await hash(BENCH_ADMIN.password, ARGON2);
        return performance.now() - t0;
      };
      for (let i = 0; i < WARMUP; i++) {
        await login();
        await argon();
      }
      const rounds: Array<{ login: number[]; hash: number[] }> = [];
      for (let r = 0; r < ROUNDS; r++) {
        const x = { login: [] as number[], hash: [] as number[] };
        // Alternate which goes first within the pair, so neither always runs on a just-warmed cache.
        for (let i = 0; i < PER_ROUND; i++) {
          if (i % 2 === 0) {
            x.login.push(await login());
            x.hash.push(await argon());
          } else {
            x.hash.push(await argon());
            x.login.push(await login());
          }
        }
        rounds.push(x);
      }
      const loginP50s = rounds.map((x) => percentile(x.login, 50));
      const hashP50s = rounds.map((x) => percentile(x.hash, 50));
      const value = median(loginP50s);
      const baseline = median(hashP50s);
      const ratio = value / baseline;
      return {
        value: round(value),
        unit: 'ms',
        baseline: round(baseline),
        ratio: round(ratio, 2),
        goal: '<= 1.3 (login p50 / one Argon2id hash p50 at the same parameters)',
        pass: ratio <= 1.3,
        rounds: ROUNDS,
        details: {
          login_p95_ms: round(percentile(rounds.flatMap((x) => x.login), 95)),
          hash_p95_ms: round(percentile(rounds.flatMap((x) => x.hash), 95)),
          round_p50s_ms: { login: loginP50s.map((v) => round(v)), hash: hashP50s.map((v) => round(v)) },
          per_round: PER_ROUND,
          argon2: 'argon2id m=19456 KiB t=2 p=1 (@node-rs/argon2, same process)',
        },
      };
    } finally {
      await svc.close();
    }
  },
};

await runIfMain(import.meta.url, scenario);
