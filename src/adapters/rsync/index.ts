export {
  prepareRsyncSsh, buildRsyncArgv, parseRsyncStats, runRsync, rsyncQuote,
  type HostKeySource, type PrepareRsyncSshOptions, type RsyncSsh, type RsyncMode, type BuildRsyncArgvOptions,
  type RsyncStats, type RunRsyncOptions, type RsyncResult,
} from './rsync-transport.js';
