/**
 * One rsync run against one server, shared by pushes, previews and retry jobs. Failures are a
 * result (`ok: false` with a client-safe `error`), never a throw, so one server can never take
 * its batch down with it.
 */
import type { RsyncStats } from './rsync-stats.js';
import path from 'node:path';
import { buildRsyncArgv, prepareRsyncSsh } from './rsync-transport.js';
import { runRsync } from './run-rsync.js';
import type { SpawnHelper } from './spawn-helper.js';
import { remoteRsyncPath } from './remote-rsync.js';
import type { HostKeyInfo, SshTarget } from '../ssh/types.js';
import { isClientSafe } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { RsyncProgress } from './rsync-progress.js';
import type { RsyncMode } from './rsync-transport.js';

export interface RsyncJob {
  /** Resolved local directory; its contents are copied. */
  source: string;
  remotePath: string;
  mode: RsyncMode;
  dryRun?: boolean;
  itemize?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Progress of a real run (not a dry run) as rsync reports it: the newest update, every `progressIntervalMs`. */
  onProgress?: (p: RsyncProgress) => void;
  /** Default 500. */
  progressIntervalMs?: number;
}

export interface RsyncOutcome {
  ok: boolean;
  stats: RsyncStats | null;
  stdout: string;
  error: string | null;
  durationMs: number;
}

export interface RsyncRunnerDeps {
  /** Fetches (and verifies against the pin) a server's host key; normally the shared SshPool. */
  hostKeys: { fetchHostKey(target: SshTarget): Promise<HostKeyInfo> };
  /** Trust on first use: records the key of a server that had none pinned. */
  pinHostKey(serverId: number, fingerprint: string): Promise<void>;
  log: Logger;
  /**
   * Seconds without data (or an answer to ssh's keepalives) after which a transfer fails, on
   * both ends: the local rsync and ssh exit, and so does the rsync on the server. Default 45.
   */
  stallTimeoutSec?: number;
  /** Starts rsync from a small helper process, off the service's event loop (see spawn-helper.ts). */
  spawner?: SpawnHelper;
}

const ERROR_MAX = 600;

/**
 * The rsync argv of one run of `job` (what the runner passes to runRsync; exported so that the
 * push benchmarks can launch the very same command line without the service around it).
 */
export function runnerArgv(
  job: Pick<RsyncJob, 'source' | 'remotePath' | 'mode' | 'dryRun' | 'itemize'>,
  target: SshTarget,
  sshCommand: string,
  stallTimeoutSec: number,
  progress: boolean,
): string[] {
  // The remote shell creates the target directory in the same connection: no extra round
  // trip, and it works with any remote rsync (unlike --mkpath, which needs 3.2.3 there too).
  // Its watchdog ends the remote rsync when the connection stalls (twice the stall timeout:
  // a live client's keepalives arrive every half of it).
  const rsyncPath = remoteRsyncPath({ mkdir: job.dryRun ? undefined : job.remotePath, idleKillSec: 2 * stallTimeoutSec });
  const extra = [`--rsync-path=${rsyncPath}`];
  // Itemized names as UTF-8, not rsync's \#ooo escapes.
  if (job.itemize) extra.push('--8-bit-output');
  return buildRsyncArgv({
    source: job.source,
    target,
    remotePath: job.remotePath,
    mode: job.mode,
    dryRun: job.dryRun,
    itemize: job.itemize,
    progress,
    stats: true,
    ioTimeoutSec: stallTimeoutSec,
    sshCommand,
    extra,
  });
}

export class RsyncRunner {
  /**
   * Host keys already verified, by server and pin. A pinned key needs no fresh SSH handshake per
   * push: OpenSSH checks the live key against this very line and refuses a changed one.
   */
  private readonly knownKeys = new Map<string, HostKeyInfo>();

  private readonly stallTimeoutSec: number;

  constructor(private readonly d: RsyncRunnerDeps) {
    this.stallTimeoutSec = d.stallTimeoutSec ?? 45;
  }

  async run(target: SshTarget, job: RsyncJob): Promise<RsyncOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let cleanup: (() => Promise<void>) | undefined;
    try {
      const hostKey = await this.hostKey(target);
      const ssh = await prepareRsyncSsh(
        { ...target, hostKeyFingerprint: hostKey.fingerprint },
        { hostPublicKey: hostKey.line, connectTimeoutSec: 10, stallTimeoutSec: this.stallTimeoutSec },
      );
      cleanup = ssh.cleanup;
      const progress = job.onProgress && !job.dryRun
        ? { file: path.join(ssh.dir, 'stdout'), onProgress: job.onProgress, intervalMs: job.progressIntervalMs }
        : undefined;
      const argv = runnerArgv(job, target, ssh.sshCommand, this.stallTimeoutSec, progress !== undefined);
      const r = await runRsync(argv, ssh.env, { signal: job.signal, timeoutMs: job.timeoutMs, progress, spawner: this.d.spawner });
      if (r.exitCode === 0) return { ok: true, stats: r.stats, stdout: r.stdout, error: null, durationMs: elapsed() };
      this.forget(target);
      let error: string;
      if (r.aborted) error = 'rsync was stopped: the service is shutting down';
      else if (r.timedOut) error = `rsync timed out after ${Math.round((job.timeoutMs ?? 0) / 1000)} s`;
      else error = describeExit(r.exitCode, r.signal, r.stderr);
      return { ok: false, stats: r.stats, stdout: r.stdout, error, durationMs: elapsed() };
    } catch (err) {
      this.forget(target);
      return { ok: false, stats: null, stdout: '', error: this.describe(err, target), durationMs: elapsed() };
    } finally {
      await cleanup?.().catch(() => {});
    }
  }

  private async hostKey(target: SshTarget): Promise<HostKeyInfo> {
    const cacheKey = this.cacheKey(target);
    const known = cacheKey ? this.knownKeys.get(cacheKey) : undefined;
    if (known) return known;
    const key = await this.d.hostKeys.fetchHostKey(target);
    if (!target.hostKeyFingerprint) await this.d.pinHostKey(target.id, key.fingerprint);
    const pinnedKey = `${target.id}|${target.host}|${target.port}|${key.fingerprint}`;
    this.knownKeys.set(pinnedKey, key);
    return key;
  }

  private cacheKey(target: SshTarget): string | null {
    return target.hostKeyFingerprint ? `${target.id}|${target.host}|${target.port}|${target.hostKeyFingerprint}` : null;
  }

  /** After a failure the next run verifies through the pool again, which names a changed key clearly. */
  private forget(target: SshTarget): void {
    const k = this.cacheKey(target);
    if (k) this.knownKeys.delete(k);
  }

  private describe(err: unknown, target: SshTarget): string {
    // Domain and SSH errors are written to be client-facing and secret-free.
    if (isClientSafe(err)) return err.message.slice(0, ERROR_MAX);
    this.d.log.warn({ serverId: target.id, err }, 'rsync could not run');
    return 'rsync could not be started';
  }
}

/** The stderr lines say what went wrong (permission denied, connection closed); keep their tail. */
function describeExit(code: number | null, signal: string | null, stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const what = code === null ? `rsync was killed by ${signal ?? 'a signal'}` : `rsync failed with exit code ${code}`;
  const text = lines.join(' | ');
  if (!text) return what;
  return `${what}: ${text.length > ERROR_MAX ? `…${text.slice(-ERROR_MAX)}` : text}`;
}
