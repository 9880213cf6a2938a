/**
 * A 2,000-file / 100 MB staged directory pushed to 8 loopback sshd targets at concurrency 8
 * through the API, against the same transfer by its peers: 8 plain `rsync -a` launched in
 * parallel, and one prsync (`parallel-rsync -p 8`) over the 8 targets, all with the product's ssh
 * options. Every round each side pushes into fresh directories; rounds rotate which side goes
 * first. Goals: API <= 1.05 x parallel rsync and <= 1.0 x prsync, each the median of the
 * rounds' paired ratios.
 */
import { startBenchApp } from '../support/app.js';
import {
  apiPush, makeSourceTree, pairedRatio, plainRsync, prsync, registerServers, rmDirs, rotate, startFleet, warm,
} from '../support/push-fleet.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';

const TARGETS = 8;
const FILES = 2000;
const BYTES = 100 * 1024 * 1024;
/** A multiple of the three sides, so each goes first equally often. */
const ROUNDS = 6;

export const scenario: Scenario = {
  name: 'push-fanout',
  async run() {
    const fleet = await startFleet(TARGETS);
    const app = await startBenchApp();
    const src = makeSourceTree(FILES, BYTES);
    const apiDirs = fleet.dirs('bench-fanout-api');
    const rsyncDirs = fleet.dirs('bench-fanout-rsync');
    const prsyncDirs = fleet.dirs('bench-fanout-prsync');
    const all = [...apiDirs, ...rsyncDirs, ...prsyncDirs];
    try {
      const ids = await registerServers(app, fleet, apiDirs);
      warm(src);
      let last: Record<string, unknown> = {};
      const sides = {
        api: async () => {
          const p = await apiPush(app, ids, src, TARGETS);
          last = p.batch;
          return p.ms;
        },
        rsync: () => plainRsync(fleet, src, rsyncDirs),
        prsync: () => prsync(fleet, src, 'bench-fanout-prsync'),
      };
      // Each side's previous copy is removed right before it runs: in one sweep before the round,
      // the first side measured paid for the deletion of all three (up to 1.6x slower here).
      const dirsOf: Record<string, string[]> = { api: apiDirs, rsync: rsyncDirs, prsync: prsyncDirs };
      const fresh = (side: string) => rmDirs(dirsOf[side]);
      // One untimed round, so connections, caches and the disk are equally warm.
      await rotate(1, fresh, sides);
      const rounds = await rotate(ROUNDS, fresh, sides);
      const vsRsync = pairedRatio(rounds, 'api', 'rsync');
      const vsPrsync = pairedRatio(rounds, 'api', 'prsync');
      const med = (k: string) => median(rounds.map((r) => r.ms[k]));
      const results = (last.results as Array<{ files_transferred: number; bytes_transferred: number }>) ?? [];
      return {
        value: round(med('api')),
        unit: 'ms',
        baseline: round(med('rsync')),
        ratio: round(vsRsync, 3),
        goal: '<= 1.05 x 8 parallel plain rsync -a, and <= 1.0 x prsync -p 8 (API push wall time, median of paired round ratios)',
        pass: vsRsync <= 1.05 && vsPrsync <= 1.0,
        rounds: ROUNDS,
        details: {
          targets: TARGETS,
          files: FILES,
          bytes: BYTES,
          concurrency: TARGETS,
          prsync_ms: round(med('prsync')),
          ratio_to_prsync: round(vsPrsync, 3),
          ratio_rule: 'median over rounds of API time / peer time in the same round; rounds rotate which side goes first',
          rounds_ms: rounds.map((r) => ({ ...Object.fromEntries(Object.entries(r.ms).map(([k, v]) => [k, round(v)])), order: r.order.join('>') })),
          files_transferred_per_server: results.map((x) => x.files_transferred),
          bytes_transferred_per_server: results.map((x) => x.bytes_transferred),
          peers: 'rsync -a -e "<the product\'s ssh command>" per target, all at once; parallel-rsync -a -p 8 -H "<8 targets>" with the same ssh options via ssh_config',
        },
      };
    } finally {
      rmDirs([...all, src]);
      await app.close();
      await fleet.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
