export {
  prepareRsyncSsh, buildRsyncArgv, parseRsyncStats, runRsync, rsyncQuote,
  type HostKeySource, type PrepareRsyncSshOptions, type RsyncSsh, type RsyncMode, type BuildRsyncArgvOptions,
  type RsyncStats, type RunRsyncOptions, type RsyncResult,
} from './rsync-transport.js';
export { RsyncRunner, type RsyncJob, type RsyncOutcome, type RsyncRunnerDeps } from './rsync-runner.js';
export { parseProgressLine, ProgressReader, type RsyncProgress } from './rsync-progress.js';
