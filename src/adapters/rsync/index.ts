export {
  prepareRsyncSsh, buildRsyncArgv, runRsync, rsyncQuote,
  type HostKeySource, type PrepareRsyncSshOptions, type RsyncSsh, type RsyncMode, type BuildRsyncArgvOptions,
  type RunRsyncOptions, type RsyncResult,
} from './rsync-transport.js';
export { parseRsyncStats, type RsyncStats } from './rsync-stats.js';
export { RsyncRunner, type RsyncJob, type RsyncOutcome, type RsyncRunnerDeps } from './rsync-runner.js';
export { parseProgressLine, ProgressReader, type RsyncProgress } from './rsync-progress.js';
