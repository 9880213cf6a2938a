/**
 * Runs the system rsync (no shell) in its own process group, with a deadline and an abort signal
 * that stop the whole group, and collects what it printed.
 *
 * Its own group also means rsync would outlive a service killed outright (OOM killer, SIGKILL):
 * it would go on writing to the server while the restarted service recovers the same push. So
 * where util-linux's `setpriv` can set a parent-death signal, rsync starts through it and the
 * kernel sends it SIGTERM the moment the service's process dies; its ssh child and the remote
 * receiver then end with the connection. Without setpriv (not util-linux) rsync starts directly.
 */
import { execFile, spawn } from 'node:child_process';
import { open, type FileHandle } from 'node:fs/promises';
import { followProgress, type RsyncProgress } from './rsync-progress.js';
import { parseRsyncStats, type RsyncStats } from './rsync-stats.js';
import { TailBuffer } from '../ssh/tail-buffer.js';
import type { SpawnedChild, SpawnHelper } from './spawn-helper.js';

export interface RunRsyncOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL. Default 5 s. */
  killGraceMs?: number;
  /** Keep the last N bytes of stdout (stats are at the end). Default 4 MiB. */
  maxStdoutBytes?: number;
  /**
   * Report `--info=progress2` updates (the argv must ask for them). rsync's stdout then goes to
   * `file` (created here, 0600; it must not exist yet: put it in the transfer's private temp dir,
   * RsyncSsh.dir, which is removed with it) instead of a pipe, and the newest update written to it
   * is passed to `onProgress` every `intervalMs` (default 500). The file grows by under 100 bytes
   * per file transferred.
   */
  progress?: { file: string; onProgress: (p: RsyncProgress) => void; intervalMs?: number };
  /** Starts rsync outside this process (see spawn-helper.ts); without one, or if it has no helper, rsync is spawned here. */
  spawner?: SpawnHelper;
}

export interface RsyncResult {
  /** null when rsync was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  aborted: boolean;
  timedOut: boolean;
  stdout: string;
  /** The last 64 KiB. */
  stderr: string;
  stats: RsyncStats | null;
}

/** Spawn the system rsync (no shell). Resolves also on failure; rejects only if it cannot be started. */
export async function runRsync(argv: string[], env: NodeJS.ProcessEnv, opts: RunRsyncOptions = {}): Promise<RsyncResult> {
  const maxStdout = opts.maxStdoutBytes ?? 4 * 1024 * 1024;
  const file = opts.progress ? await open(opts.progress.file, 'wx+', 0o600) : null;
  try {
    // Own process group, so a kill reaches the ssh child too. stdin 'ignore': ssh must not
    // prompt on a terminal; the askpass program answers instead.
    const [cmd, args] = await rsyncCommand(argv);
    const fullEnv = { ...process.env, ...env, LC_ALL: 'C' };
    const child: SpawnedChild =
      opts.spawner?.spawn(cmd, args, fullEnv, opts.progress?.file ?? null) ??
      spawn(cmd, args, { env: fullEnv, stdio: ['ignore', file ? file.fd : 'pipe', 'pipe'], detached: true });
    const piped = child.stdout ? new TailBuffer(maxStdout) : null;
    child.stdout?.on('data', (d: Buffer) => piped?.push(d));
    const follower = file && opts.progress ? followProgress(file, opts.progress.intervalMs ?? 500, opts.progress.onProgress) : null;
    let end: Ended;
    try {
      end = await waitFor(child, opts);
    } finally {
      await follower?.stop();
    }
    const stdout = file ? await readTail(file, maxStdout) : piped!.toString();
    return { ...end, stdout, stats: parseRsyncStats(stdout) };
  } finally {
    await file?.close();
  }
}

/** The program and arguments that start rsync with `argv`: through setpriv where it works. */
export async function rsyncCommand(argv: string[]): Promise<[string, string[]]> {
  return (await parentDeathWrapper()) ? ['setpriv', ['--pdeathsig', 'TERM', '--', 'rsync', ...argv]] : ['rsync', argv];
}

/**
 * A failed probe is asked again after this long: a probe can fail for a passing reason (a machine
 * too busy to start it within 5 s, a fork refused under memory pressure), and a failure kept for
 * the process's life would start every later rsync without the parent-death signal.
 */
const REPROBE_MS = 60_000;
/** One probe: its answer, that answer once known (null while it runs), and when it was asked. */
type Probe = { result: Promise<boolean>; ok: boolean | null; at: number };
let probe: Probe | null = null;

/** Whether `setpriv --pdeathsig` works here (util-linux 2.33 or later): a success is kept, a failure re-asked after REPROBE_MS. */
export function parentDeathWrapper(now = Date.now()): Promise<boolean> {
  if (!probe || (probe.ok === false && now - probe.at >= REPROBE_MS)) {
    const asked: Probe = { result: Promise.resolve(false), ok: null, at: now };
    asked.result = new Promise((resolve) => {
      execFile('setpriv', ['--pdeathsig', 'TERM', '--', 'true'], { timeout: 5000 }, (err) => {
        asked.ok = !err;
        resolve(!err);
      });
    });
    probe = asked;
  }
  return probe.result;
}

type Ended = Omit<RsyncResult, 'stdout' | 'stats'>;

function waitFor(child: SpawnedChild, opts: RunRsyncOptions): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const stderr = new TailBuffer(64 * 1024);
    child.stderr!.on('data', (d: Buffer) => stderr.push(d));
    let aborted = false;
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        child.kill(sig);
      }
    };
    const stop = (): void => {
      if (killTimer || child.exitCode !== null || child.signalCode !== null) return;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), opts.killGraceMs ?? 5000);
    };
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    const onTimeout = (): void => {
      timedOut = true;
      stop();
    };
    const timer = opts.timeoutMs ? setTimeout(onTimeout, opts.timeoutMs) : undefined;
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.once('error', (err) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(new Error(`Could not run rsync: ${err.message}`));
    });
    child.once('close', (code, sig) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, signal: sig, aborted, timedOut, stderr: stderr.toString() });
    });
  });
}

/** The last `max` bytes of the file as UTF-8 (from a character boundary when the front was cut). */
async function readTail(file: FileHandle, max: number): Promise<string> {
  const { size } = await file.stat();
  const from = Math.max(0, size - max);
  const buf = Buffer.alloc(size - from);
  const { bytesRead } = await file.read(buf, 0, buf.length, from);
  const tail = new TailBuffer(max);
  if (from > 0) tail.dropped = from;
  tail.push(buf.subarray(0, bytesRead));
  return tail.toString();
}
