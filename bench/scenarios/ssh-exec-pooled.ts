/**
 * p50 of `true` run through one pooled SSH connection, against a fresh OpenSSH connection per
 * command (what a naive `ssh host cmd` per operation costs). Both against a local real sshd.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SshPool } from '../../src/adapters/ssh/index.js';
import { startSshd, targetFor } from '../../test/fixtures/sshd.js';
import { percentile, round, runIfMain, type Scenario } from '../lib.js';

const POOLED_RUNS = 200;
const BASELINE_RUNS = 30;
const run$ = promisify(execFile);

export const scenario: Scenario = {
  name: 'ssh-exec-pooled',
  async run() {
    const sshd = await startSshd();
    const pool = new SshPool();
    try {
      const target = targetFor(sshd, 'key');
      await pool.execOrThrow(target, 'true'); // warm-up: connect + authenticate once
      const pooled: number[] = [];
      for (let i = 0; i < POOLED_RUNS; i++) {
        const t0 = performance.now();
        await pool.execOrThrow(target, 'true');
        pooled.push(performance.now() - t0);
      }

      const sshArgs = [
        '-p', String(sshd.port), '-i', sshd.privateKeyPath,
        '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
        '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR',
        `${sshd.username}@127.0.0.1`, 'true',
      ];
      const fresh: number[] = [];
      for (let i = 0; i < BASELINE_RUNS; i++) {
        const t0 = performance.now();
        await run$('ssh', sshArgs, { timeout: 15_000 });
        fresh.push(performance.now() - t0);
      }

      const p50 = percentile(pooled, 50);
      const baseP50 = percentile(fresh, 50);
      const ratio = baseP50 / p50;
      return {
        value: round(p50),
        unit: 'ms',
        baseline: round(baseP50),
        ratio: round(ratio, 1),
        goal: '>= 10x and p50 <= 5 ms',
        pass: ratio >= 10 && p50 <= 5,
        details: {
          pooled_p95_ms: round(percentile(pooled, 95)),
          baseline_p95_ms: round(percentile(fresh, 95)),
          pooled_runs: POOLED_RUNS,
          baseline_runs: BASELINE_RUNS,
          connections_opened: pool.stats().connectsTotal,
          baseline: 'OpenSSH client, a new connection per command (ed25519 key auth)',
        },
      };
    } finally {
      await pool.closeAll();
      await sshd.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
