/** p50 of a successful login (Argon2id at OWASP parameters, JWT pair issued, audit row written). */
import { percentile, round, runIfMain, type Scenario } from '../lib.js';
import { BENCH_ADMIN, startBenchApp } from '../support/app.js';

const RUNS = 40;

export const scenario: Scenario = {
  name: 'login-latency',
  async run() {
    const svc = await startBenchApp();
    try {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        const res = await fetch(`${svc.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(BENCH_ADMIN),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`login answered ${res.status}`);
        if (i >= 3) times.push(performance.now() - t0);
      }
      const p50 = percentile(times, 50);
      return {
        value: round(p50),
        unit: 'ms',
        baseline: null,
        ratio: null,
        goal: '<= 100 ms',
        pass: p50 <= 100,
        details: { p95_ms: round(percentile(times, 95)), runs: RUNS, argon2: 'argon2id m=19456 KiB t=2 p=1' },
      };
    } finally {
      await svc.close();
    }
  },
};

await runIfMain(import.meta.url, scenario);
