/**
 * A 2,000-file / 100 MB staged directory pushed to 8 loopback sshd targets at concurrency 8
 * through the API, against the same 8 plain `rsync -a` commands (same ssh options, key auth)
 * launched in parallel by the bench itself. Rounds alternate which side goes first, each into
 * fresh directories; the figure is total API time over total rsync time.
 */
import { startBenchApp } from '../support/app.js';
import {
  alternate, apiPush, makeSourceTree, plainRsync, prsync, ratioOfSums, registerServers, rmDirs, settle, startFleet, warm,
} from '../support/push-fleet.js';
import { median, round, runIfMain, type Scenario } from '../lib.js';

const TARGETS = 8;
const FILES = 2000;
const BYTES = 100 * 1024 * 1024;
const ROUNDS = 4;

export const scenario: Scenario = {
  name: 'push-fanout',
  async run() {
    const fleet = await startFleet(TARGETS);
    const app = await startBenchApp();
    const src = makeSourceTree(FILES, BYTES);
    const home = fleet.targets[0].homeDir;
    const apiDirs = fleet.targets.map((_, i) => `${home}/bench-fanout-api-${i}`);
    const baseDirs = fleet.targets.map((_, i) => `${home}/bench-fanout-base-${i}`);
    try {
      const ids = await registerServers(app, fleet, apiDirs);
      warm(src);
      // One untimed round each, so connections, caches and the disk are equally warm.
      await plainRsync(fleet, src, baseDirs);
      await apiPush(app, ids, src, TARGETS);
      let last: Record<string, unknown> = {};
      const pairs = await alternate(
        ROUNDS,
        () => rmDirs([...apiDirs, ...baseDirs]),
        () => plainRsync(fleet, src, baseDirs),
        async () => {
          const p = await apiPush(app, ids, src, TARGETS);
          last = p.batch;
          return p.ms;
        },
      );
      rmDirs(baseDirs);
      settle();
      const peer = await prsync(fleet, src, baseDirs);
      const ratio = ratioOfSums(pairs);
      const results = (last.results as Array<{ files_transferred: number; bytes_transferred: number }>) ?? [];
      return {
        value: round(median(pairs.map((x) => x.api))),
        unit: 'ms',
        baseline: round(median(pairs.map((x) => x.rsync))),
        ratio: round(ratio, 3),
        goal: '<= 1.10 (API push wall time / 8 parallel plain rsync -a)',
        pass: ratio <= 1.1,
        details: {
          targets: TARGETS,
          files: FILES,
          bytes: BYTES,
          concurrency: TARGETS,
          ratio_rule: 'sum of API times / sum of rsync times over rounds alternating which side goes first',
          rounds_ms: pairs.map((x) => ({ ...x, api: round(x.api), rsync: round(x.rsync) })),
          files_transferred_per_server: results.map((x) => x.files_transferred),
          bytes_transferred_per_server: results.map((x) => x.bytes_transferred),
          prsync_ms: peer === null ? 'unavailable' : round(peer),
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
