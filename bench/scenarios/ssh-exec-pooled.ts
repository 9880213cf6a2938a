/**
 * p50 of `true` run through the product's pooled SSH connection, against the strongest peer:
 * OpenSSH multiplexing (`ControlMaster=auto`, `ControlPersist=60`, the master opened before any
 * timing), and against a new `ssh` connection per command. Same command, same local sshd, same
 * ed25519 key. Rounds interleave the three, so load drifts hit them alike; each figure is the
 * median of the rounds' p50s. Goals: pooled <= 1.2 x multiplexed, and >= 10 x faster than a new ssh.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SshPool } from '../../src/adapters/ssh/index.js';
import { startSshd, targetFor } from '../../test/fixtures/sshd.js';
import { median, percentile, round, runIfMain, type Scenario } from '../lib.js';
import { sshClient } from '../support/ssh-mux.js';

const ROUNDS = 7;
const POOLED_PER_ROUND = 40;
const MUX_PER_ROUND = 40;
const FRESH_PER_ROUND = 6;
const run$ = promisify(execFile);

export const scenario: Scenario = {
  name: 'ssh-exec-pooled',
  async run() {
    const sshd = await startSshd();
    const pool = new SshPool();
    const client = sshClient(sshd);
    const { ssh, common, mux, dest } = client;
    const time = async (f: () => Promise<unknown>): Promise<number> => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    try {
      const target = targetFor(sshd, 'key');
      // Untimed: the pool connects and authenticates; the first mux call starts the master.
      await pool.execOrThrow(target, 'true');
      await client.open();

      const rounds: Array<{ pooled: number[]; mux: number[]; fresh: number[] }> = [];
      for (let r = 0; r < ROUNDS; r++) {
        const round$ = { pooled: [] as number[], mux: [] as number[], fresh: [] as number[] };
        for (let i = 0; i < POOLED_PER_ROUND; i++) round$.pooled.push(await time(() => pool.execOrThrow(target, 'true')));
        for (let i = 0; i < MUX_PER_ROUND; i++) round$.mux.push(await time(() => run$(ssh, [...mux, dest, 'true'], { timeout: 15_000 })));
        for (let i = 0; i < FRESH_PER_ROUND; i++) round$.fresh.push(await time(() => run$(ssh, [...common, dest, 'true'], { timeout: 15_000 })));
        rounds.push(round$);
      }

      const p50s = (k: 'pooled' | 'mux' | 'fresh') => rounds.map((x) => percentile(x[k], 50));
      const pooled = median(p50s('pooled'));
      const muxP50 = median(p50s('mux'));
      const fresh = median(p50s('fresh'));
      const vsMux = pooled / muxP50;
      const vsFresh = fresh / pooled;
      const all = (k: 'pooled' | 'mux' | 'fresh') => rounds.flatMap((x) => x[k]);
      return {
        value: round(pooled, 3),
        unit: 'ms',
        baseline: round(muxP50, 3),
        ratio: round(vsMux, 2),
        goal: 'pooled p50 <= 1.2 x OpenSSH multiplexed (ControlMaster) p50, and a new ssh per command >= 10 x pooled',
        pass: vsMux <= 1.2 && vsFresh >= 10,
        rounds: ROUNDS,
        details: {
          ratio_rule: 'median over rounds of each side\'s p50; ratio = pooled / multiplexed',
          new_ssh_p50_ms: round(fresh, 2),
          new_ssh_over_pooled: round(vsFresh, 1),
          pooled_p95_ms: round(percentile(all('pooled'), 95), 3),
          multiplexed_p95_ms: round(percentile(all('mux'), 95), 3),
          new_ssh_p95_ms: round(percentile(all('fresh'), 95), 2),
          round_p50s_ms: { pooled: p50s('pooled').map((v) => round(v, 3)), multiplexed: p50s('mux').map((v) => round(v, 3)), new_ssh: p50s('fresh').map((v) => round(v, 2)) },
          per_round: { pooled: POOLED_PER_ROUND, multiplexed: MUX_PER_ROUND, new_ssh: FRESH_PER_ROUND },
          connections_opened: pool.stats().connectsTotal,
          baseline: 'ssh -o ControlMaster=auto -o ControlPath=… -o ControlPersist=60 host true, master opened before timing',
        },
      };
    } finally {
      await client.close();
      await pool.closeAll();
      await sshd.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
