/**
 * The body of the spawn helper process (see spawn-helper.ts): starts the programs the service
 * asks for, each in its own process group, relays their output and exit over the IPC channel,
 * and exits when the channel closes (the service stopped or died): a child started through
 * `setpriv --pdeathsig` then gets SIGTERM, as it would if the service had started it.
 *
 * Node built-ins only, so the built service starts it with plain `node` and it stays small: a
 * fork costs time in proportion to the forking process's memory, and this one's is ~45 MB.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync, constants } from 'node:fs';

/** From the service: start `cmd` with `args`; stdout to `stdoutPath` (opened for append) or relayed. */
export interface SpawnRequest {
  id: number;
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  stdoutPath: string | null;
}

/** To the service, in the order they happen for one id: started (or failed), output, closed. */
export type SpawnEvent =
  | { id: number; type: 'started'; pid: number }
  | { id: number; type: 'failed'; message: string }
  | { id: number; type: 'stdout' | 'stderr'; data: Buffer }
  | { id: number; type: 'close'; code: number | null; signal: NodeJS.Signals | null };

const send = (e: SpawnEvent): void => {
  // A channel closed under a send is the service gone: the disconnect handler ends this process.
  if (process.connected) process.send?.(e);
};

function start(req: SpawnRequest): void {
  let fd: number | null = null;
  try {
    // The service created the file (0600, in the transfer's private dir); it must exist already.
    if (req.stdoutPath) fd = openSync(req.stdoutPath, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    const child = spawn(req.cmd, req.args, { env: req.env, stdio: ['ignore', fd ?? 'pipe', 'pipe'], detached: true });
    child.once('spawn', () => send({ id: req.id, type: 'started', pid: child.pid! }));
    child.once('error', (err) => send({ id: req.id, type: 'failed', message: err.message }));
    child.stdout?.on('data', (data: Buffer) => send({ id: req.id, type: 'stdout', data }));
    child.stderr?.on('data', (data: Buffer) => send({ id: req.id, type: 'stderr', data }));
    child.once('close', (code, signal) => send({ id: req.id, type: 'close', code, signal }));
  } catch (err) {
    send({ id: req.id, type: 'failed', message: (err as Error).message });
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

if (process.send) {
  process.on('message', (req: SpawnRequest) => start(req));
  process.once('disconnect', () => process.exit(0));
  // A Ctrl-C at the terminal or a service manager's SIGTERM reaches this process too; the service
  // stops its transfers itself while it shuts down, so this one leaves with the service, not before.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
}
