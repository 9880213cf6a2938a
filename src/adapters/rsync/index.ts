export {
  prepareRsyncSsh, buildRsyncArgv, rsyncQuote,
  type HostKeySource, type PrepareRsyncSshOptions, type RsyncSsh, type RsyncMode, type BuildRsyncArgvOptions,
} from './rsync-transport.js';
export { runRsync, rsyncCommand, type RunRsyncOptions, type RsyncResult } from './run-rsync.js';
export { parseRsyncStats, type RsyncStats } from './rsync-stats.js';
export { RsyncRunner, runnerArgv, type RsyncJob, type RsyncOutcome, type RsyncRunnerDeps } from './rsync-runner.js';
export { parseProgressLine, lastProgress, type RsyncProgress } from './rsync-progress.js';
export { SpawnHelper } from './spawn-helper.js';
