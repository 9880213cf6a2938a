/**
 * The same push again with nothing changed: a 10,000-file directory already on 8 loopback sshd
 * targets, pushed through the API at concurrency 8, against the same no-op by its peers: 8 plain
 * `rsync -a` launched in parallel and one prsync (`parallel-rsync -p 8`), all with the product's
 * ssh options. Rounds rotate which side goes first; goals are medians of the rounds' paired ratios.
 * A fourth side, for the details only, launches the product's own rsync command line (its remote
 * wrapper and stall watchdog, setpriv, progress, stats) without the service: the API over it is
 * the service's own share, it over plain rsync the share of what the product asks rsync to do.
 */
import { startBenchApp } from '../support/app.js';
import {
  apiPush, makeSourceTree, pairedRatio, plainRsync, productRsync, prsync, registerServers, rmDirs, rotate, startFleet, warm,
} from '../support/push-fleet.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';

const TARGETS = 8;
const FILES = 10_000;
const BYTES = 100 * 1024 * 1024;
/** A multiple of the four sides, so each goes first equally often. */
const ROUNDS = 8;

export const scenario: Scenario = {
  name: 'push-noop',
  async run() {
    const fleet = await startFleet(TARGETS);
    const app = await startBenchApp();
    const src = makeSourceTree(FILES, BYTES);
    const apiDirs = fleet.dirs('bench-noop-api');
    const rsyncDirs = fleet.dirs('bench-noop-rsync');
    const prsyncDirs = fleet.dirs('bench-noop-prsync');
    const argvDirs = fleet.dirs('bench-noop-argv');
    const all = [...apiDirs, ...rsyncDirs, ...prsyncDirs, ...argvDirs];
    try {
      const ids = await registerServers(app, fleet, apiDirs);
      warm(src);
      let transferred = -1;
      const sides = {
        api: async () => {
          const p = await apiPush(app, ids, src, TARGETS);
          transferred = (p.batch.results as Array<{ files_transferred: number }>).reduce((n, x) => n + x.files_transferred, 0);
          return p.ms;
        },
        rsync: () => plainRsync(fleet, src, rsyncDirs),
        prsync: () => prsync(fleet, src, 'bench-noop-prsync'),
        product_argv: () => productRsync(fleet, src, argvDirs, app.stallTimeoutSec),
      };
      // The first push of each side fills the targets; what is measured is every push after it.
      rmDirs(all);
      const first = await rotate(1, () => {}, sides);
      const rounds = await rotate(ROUNDS, () => {}, sides);
      const vsRsync = pairedRatio(rounds, 'api', 'rsync');
      const vsPrsync = pairedRatio(rounds, 'api', 'prsync');
      const med = (k: string) => median(rounds.map((r) => r.ms[k]));
      return {
        value: round(med('api')),
        unit: 'ms',
        baseline: round(med('rsync')),
        ratio: round(vsRsync, 3),
        goal: '<= 1.05 x 8 parallel plain rsync -a no-ops, and <= 1.0 x prsync -p 8 (median of paired round ratios); nothing transferred',
        pass: vsRsync <= 1.05 && vsPrsync <= 1.0 && transferred === 0,
        rounds: ROUNDS,
        details: {
          targets: TARGETS,
          files: FILES,
          bytes: BYTES,
          concurrency: TARGETS,
          first_push_ms: round(first[0].ms.api),
          prsync_ms: round(med('prsync')),
          ratio_to_prsync: round(vsPrsync, 3),
          product_argv_ms: round(med('product_argv')),
          product_argv_ratio_to_rsync: round(pairedRatio(rounds, 'product_argv', 'rsync'), 3),
          ratio_to_product_argv: round(pairedRatio(rounds, 'api', 'product_argv'), 3),
          ratio_rule: 'median over rounds of API time / peer time in the same round; rounds rotate which side goes first',
          rounds_ms: rounds.map((r) => ({ ...Object.fromEntries(Object.entries(r.ms).map(([k, v]) => [k, round(v)])), order: r.order.join('>') })),
          files_transferred_in_noop: transferred,
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
