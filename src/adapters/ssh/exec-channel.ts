import type { Client, ClientChannel } from 'ssh2';
import { shellJoin, shellQuote } from './quote.js';
import { TailBuffer } from './tail-buffer.js';
import type { ExecOptions, ExecResult } from './types.js';

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** How long after a timeout we wait for the remote side to close before closing the channel ourselves. */
const KILL_GRACE_MS = 1000;

/** Raised when the channel could not be opened, i.e. nothing ran remotely: safe to retry. */
export class ChannelOpenError extends Error {
  constructor(readonly original: Error) {
    super(original.message);
  }
  /** The server refused one more session on this connection (OpenSSH MaxSessions). */
  get sessionLimit(): boolean {
    return /Channel open failure/i.test(this.original.message);
  }
}

/**
 * The command line sent to sshd, which hands it to the login shell with `-c`. A string script
 * is wrapped in `sh -c` so it always runs in one shell dialect; argv is already fully quoted,
 * so it goes as is (one exec fewer per command). With a timeout, the remote `timeout -s KILL`
 * is what actually ends the process: SSH offers no reliable way to signal a non-pty session,
 * and closing the channel leaves the process running.
 */
export function buildRemoteCommand(command: string | readonly string[], timeoutMs?: number): string {
  if (typeof command !== 'string' && command.length === 0) throw new TypeError('exec: empty argv');
  const script = typeof command === 'string' ? command : shellJoin(command);
  if (timeoutMs !== undefined && timeoutMs > 0) {
    // Whole seconds: BusyBox timeout accepts no fractions, and rounding up keeps the local
    // deadline (which reports timedOut) first.
    const secs = Math.max(1, Math.ceil(timeoutMs / 1000));
    return `exec timeout -s KILL ${secs} sh -c ${shellQuote(script)}`;
  }
  return typeof command === 'string' ? `exec sh -c ${shellQuote(script)}` : script;
}

export function describeCommand(command: string | readonly string[]): string {
  return typeof command === 'string' ? command : shellJoin(command);
}

/**
 * Run one command on an open client. `register` lets the pool abort the run when the
 * connection drops (ssh2 then closes the channel without an exit status).
 */
export function runExec(
  client: Client,
  command: string | readonly string[],
  opts: ExecOptions,
  register: (abort: (err: Error) => void) => () => void,
): Promise<ExecResult> {
  const started = performance.now();
  const limit = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const timeoutMs = opts.timeoutMs;
  const remote = buildRemoteCommand(command, timeoutMs);

  return new Promise<ExecResult>((resolve, reject) => {
    const stdout = new TailBuffer(limit);
    const stderr = new TailBuffer(limit);
    let channel: ClientChannel | null = null;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let sawExit = false;
    let timedOut = false;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const finish = (err?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      unregister();
      if (err) {
        if (channel) channel.close();
        reject(err);
        return;
      }
      const durationMs = performance.now() - started;
      // `timeout -s KILL` kills its own process group, itself included: the remote run ends
      // with SIGKILL (or 137 through a shell) at about the deadline.
      const killedAtDeadline =
        timeoutMs !== undefined &&
        (exitSignal === 'SIGKILL' || exitCode === 137) &&
        durationMs >= timeoutMs - 50;
      const isTimeout = timedOut || killedAtDeadline;
      resolve({
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        exitCode: isTimeout ? null : exitCode,
        timedOut: isTimeout,
        durationMs,
      });
    };
    const unregister = register((err) => finish(err));

    // The deadline runs from the call, not from the channel's opening: on a stalled connection
    // the open is never answered, and the caller must still hear "timed out" in time. Without a
    // channel there is nothing to close; the command, if it ever starts, ends by its remote `timeout`.
    if (timeoutMs !== undefined && timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        if (!channel) return finish();
        graceTimer = setTimeout(() => {
          channel?.close();
          finish();
        }, KILL_GRACE_MS);
      }, timeoutMs);
    }
    try {
      client.exec(remote, (err, opened) => {
        if (err) {
          finish(new ChannelOpenError(err));
          return;
        }
        if (done) {
          opened.close();
          return;
        }
        channel = opened;
        const onData = opts.onData;
        opened.on('data', (d: Buffer) => {
          stdout.push(d);
          onData?.('stdout', d);
        });
        opened.stderr.on('data', (d: Buffer) => {
          stderr.push(d);
          onData?.('stderr', d);
        });
        opened.on('exit', (code: number | null, signal?: string) => {
          sawExit = true;
          exitCode = typeof code === 'number' ? code : null;
          exitSignal = signal ?? null;
        });
        // Writing stdin to a command that already exited surfaces here; the exit status says what happened.
        opened.on('error', () => {});
        opened.on('close', () => {
          if (!sawExit && !timedOut && !done) {
            // Closed without an exit status: the connection went away under us. The pool's
            // abort normally fires first with a better error; this is the fallback.
            setImmediate(() => finish(new Error('Channel closed without exit status')));
            return;
          }
          finish();
        });
        pipeStdin(opened, opts.stdin, (e) => finish(e));
      });
    } catch (err) {
      finish(new ChannelOpenError(err as Error));
    }
  });
}

function pipeStdin(
  channel: ClientChannel,
  stdin: ExecOptions['stdin'],
  onError: (err: Error) => void,
): void {
  if (stdin === undefined) {
    channel.end();
  } else if (typeof stdin === 'string' || Buffer.isBuffer(stdin)) {
    channel.end(stdin);
  } else {
    const src = stdin as NodeJS.ReadableStream & { on(ev: 'error', fn: (e: Error) => void): unknown };
    src.on('error', (e: Error) => onError(new Error(`stdin stream failed: ${e.message}`)));
    // pipe() honours the channel's backpressure (SSH window), so large inputs stream in constant memory.
    src.pipe(channel);
    channel.once('close', () => src.unpipe(channel));
  }
}
