/**
 * The same push again with nothing changed: a 10,000-file directory already on 8 loopback sshd
 * targets, pushed through the API at concurrency 8, against 8 plain `rsync -a` no-op runs
 * (same ssh options) launched in parallel. Rounds alternate which side goes first; the figure is
 * total API time over total rsync time.
 */
import { startBenchApp } from '../support/app.js';
import {
  alternate, apiPush, makeSourceTree, plainRsync, prsync, ratioOfSums, registerServers, rmDirs, startFleet, warm,
} from '../support/push-fleet.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';

const TARGETS = 8;
const FILES = 10_000;
const BYTES = 100 * 1024 * 1024;
const ROUNDS = 10;

export const scenario: Scenario = {
  name: 'push-noop',
  async run() {
    const fleet = await startFleet(TARGETS);
    const app = await startBenchApp();
    const src = makeSourceTree(FILES, BYTES);
    const home = fleet.targets[0].homeDir;
    const apiDirs = fleet.targets.map((_, i) => `${home}/bench-noop-api-${i}`);
    const baseDirs = fleet.targets.map((_, i) => `${home}/bench-noop-base-${i}`);
    try {
      const ids = await registerServers(app, fleet, apiDirs);
      warm(src);
      // The first push of each side fills the targets; what is measured is every push after it.
      await plainRsync(fleet, src, baseDirs);
      const first = await apiPush(app, ids, src, TARGETS);
      let transferred = -1;
      const pairs = await alternate(
        ROUNDS,
        () => {},
        () => plainRsync(fleet, src, baseDirs),
        async () => {
          const p = await apiPush(app, ids, src, TARGETS);
          transferred = (p.batch.results as Array<{ files_transferred: number }>).reduce((n, x) => n + x.files_transferred, 0);
          return p.ms;
        },
      );
      const peer = await prsync(fleet, src, baseDirs);
      const ratio = ratioOfSums(pairs);
      return {
        value: round(median(pairs.map((x) => x.api))),
        unit: 'ms',
        baseline: round(median(pairs.map((x) => x.rsync))),
        ratio: round(ratio, 3),
        goal: '<= 1.10 (API no-op push wall time / 8 parallel plain rsync -a no-ops)',
        pass: ratio <= 1.1 && transferred === 0,
        details: {
          targets: TARGETS,
          files: FILES,
          bytes: BYTES,
          concurrency: TARGETS,
          first_push_ms: round(first.ms),
          ratio_rule: 'sum of API times / sum of rsync times over rounds alternating which side goes first',
          rounds_ms: pairs.map((x) => ({ ...x, api: round(x.api), rsync: round(x.rsync) })),
          files_transferred_in_noop: transferred,
          prsync_noop_ms: peer === null ? 'unavailable' : round(peer),
          prsync_ratio_to_rsync: peer === null ? null : round(peer / median(pairs.map((x) => x.rsync)), 3),
          prsync_note: 'parallel-rsync, one invocation per target (all loopback targets share one home dir), launched at once',
        },
      };
    } finally {
      rmDirs([...apiDirs, ...baseDirs, src]);
      await app.close();
      await fleet.stop();
    }
  },
};

await runIfMain(import.meta.url, scenario);
