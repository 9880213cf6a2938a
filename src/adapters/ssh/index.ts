export { SshPool } from './ssh-pool.js';
export { shellQuote, shellJoin } from './quote.js';
export {
  ExecError, SshConnectionError, HostKeyMismatchError, mapConnectError, formatHostPort,
  type SshConnectionErrorKind, type SshEndpoint,
} from './errors.js';
export { fingerprintOf, fingerprintOfLine, normalizeFingerprint, parseHostKey, knownHostsLine } from './host-key.js';
export { buildRemoteCommand } from './exec-channel.js';
export { uploadToSftp } from './sftp.js';
export type {
  SshAuth, SshTarget, ExecOptions, ExecResult, SshLogger, SshPoolOptions, SshPoolStats, HostKeyInfo,
  SftpUploadOptions, UploadSource, SshContact,
} from './types.js';
