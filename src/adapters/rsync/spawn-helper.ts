/**
 * rsync is started by a small helper process instead of the service itself. Node forks to spawn,
 * and a fork blocks the forking process for time that grows with its memory: 1.2 ms from a 47 MB
 * node, 4.2 ms from one holding the service (200 MB), 12.8 ms at 480 MB, measured on a 2-core VM.
 * A push to 8 servers started its last rsync 50–78 ms after its first while the service's event
 * loop stood still for each fork (heartbeats and API answers waiting); at a thousand servers that
 * is seconds. The helper (spawn-helper-main.ts, ~45 MB) does the forking; the service only sends
 * a message. Its children are killed by the service directly (their process group), as before.
 *
 * The helper starts on first use, exits when it has had no child for a minute (the idle service
 * keeps its small footprint), and when the service goes (its IPC channel closes). If it cannot
 * start, or dies, the runs it had fail as killed, and the next spawn starts a new one; a caller
 * that gets no helper at all spawns directly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { SpawnEvent, SpawnRequest } from './spawn-helper-main.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const IDLE_EXIT_MS = 60_000;

/**
 * What a caller needs of a started program: a ChildProcess has it, and so has the helper's
 * stand-in for one, whose output arrives as 'data' events, each emitted as its message arrives,
 * so everything the program wrote has been emitted before its 'close' (a stream would defer some).
 */
export interface SpawnedChild {
  pid?: number | undefined;
  exitCode: number | null;
  signalCode: NodeJS.Signals | null;
  stdout: { on(event: 'data', listener: (d: Buffer) => void): unknown } | null;
  stderr: { on(event: 'data', listener: (d: Buffer) => void): unknown } | null;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'error', listener: (err: Error) => void): unknown;
  once(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

/** Structured clone may hand a Buffer over as a plain Uint8Array. */
const asBuffer = (d: Uint8Array): Buffer => (Buffer.isBuffer(d) ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength));

class RemoteChild extends EventEmitter implements SpawnedChild {
  pid: number | undefined = undefined;
  readonly stdout: EventEmitter | null;
  readonly stderr = new EventEmitter();
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private ended = false;
  private pendingSignal: NodeJS.Signals | null = null;

  constructor(piped: boolean) {
    super();
    this.stdout = piped ? new EventEmitter() : null;
  }

  /** Signals the child's whole process group; asked before it has started, as soon as it has. */
  kill(signal: NodeJS.Signals): boolean {
    if (this.ended) return false;
    if (this.pid === undefined) {
      this.pendingSignal = signal;
      return true;
    }
    try {
      process.kill(-this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** One event from the helper; anything after the end is ignored. */
  take(e: SpawnEvent): void {
    if (this.ended) return;
    if (e.type === 'started') {
      this.pid = e.pid;
      if (this.pendingSignal) this.kill(this.pendingSignal);
    } else if (e.type === 'stdout') this.stdout?.emit('data', asBuffer(e.data));
    else if (e.type === 'stderr') this.stderr.emit('data', asBuffer(e.data));
    else if (e.type === 'failed') this.fail(e.message);
    else if (e.type === 'close') this.close(e.code, e.signal);
  }

  /** The helper died under this run: its child got SIGTERM through setpriv, or is orphaned. */
  lost(): void {
    if (this.pid === undefined) this.fail('the spawn helper exited');
    else this.close(null, 'SIGTERM');
  }

  private fail(message: string): void {
    this.ended = true;
    this.emit('error', new Error(message));
  }

  private close(code: number | null, signal: NodeJS.Signals | null): void {
    this.ended = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('close', code, signal);
  }
}

export class SpawnHelper {
  private helper: ChildProcess | null = null;
  private nextId = 1;
  private readonly running = new Map<number, RemoteChild>();
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * Starts `cmd` through the helper, detached in its own process group, stdin closed. stdout goes
   * to `stdoutPath` (an existing file, appended to) or comes back on `stdout`. Null when no helper
   * can be started here: the caller spawns itself.
   */
  spawn(cmd: string, args: string[], env: NodeJS.ProcessEnv, stdoutPath: string | null): SpawnedChild | null {
    const helper = this.ensure();
    if (!helper) return null;
    const id = this.nextId++;
    const child = new RemoteChild(stdoutPath === null);
    this.running.set(id, child);
    child.once('close', () => this.done(id));
    child.once('error', () => this.done(id));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // While a child runs, its run holds the service open, as a child of its own would.
    helper.ref();
    helper.channel?.ref();
    const req: SpawnRequest = { id, cmd, args, env, stdoutPath };
    helper.send(req);
    return child;
  }

  /** The helper's process id while one runs. */
  get pid(): number | undefined {
    return this.helper?.connected ? this.helper.pid : undefined;
  }

  /** Stops the helper (its children end with it through their parent-death signal). */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.helper?.disconnect();
  }

  private done(id: number): void {
    this.running.delete(id);
    if (this.running.size > 0 || !this.helper) return;
    this.helper.unref();
    this.helper.channel?.unref();
    this.idleTimer = setTimeout(() => this.close(), IDLE_EXIT_MS);
    this.idleTimer.unref();
  }

  private ensure(): ChildProcess | null {
    if (this.helper?.connected) return this.helper;
    try {
      const file = fileURLToPath(new URL(`./spawn-helper-main.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
      const helper = spawn(process.execPath, [...(FROM_SOURCE ? ['--import', 'tsx'] : []), file], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: 'advanced',
      });
      helper.on('message', (e: SpawnEvent) => this.running.get(e.id)?.take(e));
      // Gone (exited, or never started: 'error' without 'exit'): every run it had ends now.
      const gone = (): void => {
        if (this.helper !== helper) return;
        this.helper = null;
        for (const child of this.running.values()) child.lost();
        this.running.clear();
      };
      helper.once('exit', gone);
      helper.once('error', () => {
        gone();
        helper.kill('SIGKILL');
      });
      // An idle helper never keeps the service alive; one with children is referenced by their runs.
      helper.unref();
      helper.channel?.unref();
      this.helper = helper;
      return helper;
    } catch {
      return null;
    }
  }
}
