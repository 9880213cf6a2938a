import type { Readable } from 'node:stream';
import type { SshConnectionErrorKind } from './errors.js';

export type SshAuth =
  | { type: 'key'; privateKey: string; passphrase?: string }
  | { type: 'password'; password: string };

export interface SshTarget {
  id: number; // server id (pool key together with a hash of host/port/user/credentials)
  name: string;
  host: string;
  port: number;
  username: string;
  auth: SshAuth;
  /** Pinned SHA-256 fingerprint ("SHA256:base64-no-padding", as ssh-keygen -l prints), or null = trust on first use. */
  hostKeyFingerprint: string | null;
}

export interface ExecOptions {
  timeoutMs?: number;
  stdin?: string | Buffer | NodeJS.ReadableStream;
  /** Keep the last N bytes of each stream, default 1 MiB. */
  maxOutputBytes?: number;
  /**
   * Called with each chunk as it arrives (live output). The result still holds only the last
   * `maxOutputBytes` of each stream; a caller that keeps chunks applies its own cap.
   */
  onData?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Remote exit status; null when the process was killed by a signal or timed out. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/** pino-compatible subset, so the app logger can be passed straight in. */
export interface SshLogger {
  debug(obj: Record<string, unknown>, msg?: string): void;
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
}

export interface SshPoolOptions {
  /** Close a connection after it has been unused this long. Default 60 s. */
  idleMs?: number;
  /** Connections per target at most; beyond that, operations queue. Default 4. */
  maxPerHost?: number;
  /** Channels (exec sessions, sftp) per connection; OpenSSH's MaxSessions defaults to 10. */
  maxChannelsPerConnection?: number;
  /** TCP connect + SSH handshake + authentication. Default 10 s. */
  connectTimeoutMs?: number;
  /** ssh2 keepalive, so half-open connections are noticed. Default 15 s; 0 disables. */
  keepaliveIntervalMs?: number;
  /**
   * Every contact's outcome, for the server's reachability: `ok` once a connection was ready for
   * an operation, or the error class when connecting failed or the connection dropped under one.
   * A command that ran and exited non-zero is still `ok` (the host answered). Called
   * synchronously on the operation's path: the receiver must be cheap and must not throw.
   */
  onContact?: (serverId: number, outcome: SshContact) => void;
  /** Called once after the first successful connection to a target without a pinned key. */
  onHostKeyPinned?: (serverId: number, fingerprint: string) => Promise<void> | void;
  logger?: SshLogger;
}

/** The host key presented by a server, as captured in ssh2's hostVerifier. */
export interface HostKeyInfo {
  /** e.g. 'ssh-ed25519'. */
  keyType: string;
  /** The raw public key blob, base64 (the second field of a known_hosts / authorized_keys line). */
  base64: string;
  /** 'SHA256:…' without padding, as `ssh-keygen -l` prints. */
  fingerprint: string;
  /** `${keyType} ${base64}`. */
  line: string;
}

export interface SshPoolStats {
  /** Open (or opening) connections over all targets. */
  connections: number;
  /** Connections ever opened successfully by this pool. */
  connectsTotal: number;
  /** Channels currently open over all connections. */
  activeChannels: number;
  /** Operations waiting for a free channel slot. */
  queued: number;
}

export interface SftpUploadOptions {
  /** Permission bits for the remote file (applied with chmod after the upload, so the umask cannot narrow them). */
  mode?: number;
  signal?: AbortSignal;
}

export type UploadSource = Readable | NodeJS.ReadableStream;

/** The outcome of one SSH contact: reachable, or the class of the failure (never a message). */
export type SshContact = { ok: true } | { ok: false; kind: SshConnectionErrorKind };
