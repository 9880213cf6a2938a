/**
 * Pins a measured load: the server under test (every thread of its process) to the machine's last
 * CPU, the load generator (every thread of this process) to the others, for the measured window
 * only. Unpinned, the scheduler put both on one CPU for part of some rounds, and on a two-core
 * machine a round's figures moved by half from one process to the next (api-overhead rounds
 * 0.58 to 0.94 in one run; a bare Fastify child alone 16 to 32 µs of CPU per request). Both sides
 * of a comparison are pinned alike. This process's own children (rsync, ssh) are not started
 * during a pinned window; afterwards this process may use every CPU again.
 *
 * util-linux's `taskset` does the pinning; without it the load fails loudly (as a missing peer
 * tool does). A one-CPU machine has nothing to pin, and the window runs unpinned.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** How the measured loads were pinned, for `details`. */
export function pinningNote(): string {
  const n = os.availableParallelism();
  return n < 2 ? 'unpinned (one CPU)' : `server on CPU ${n - 1}, load generator on CPU${n > 2 ? `s 0-${n - 2}` : ' 0'} (taskset, every thread)`;
}

function taskset(cpus: string, pid: number): void {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') throw new Error('taskset is needed to pin the measured loads: apt-get install util-linux');
    throw new Error(`taskset ${cpus} ${pid} failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

/** Runs `load` with the server `pid` and this process pinned apart (see above). */
export async function pinnedApart<T>(serverPid: number, load: () => Promise<T>): Promise<T> {
  const n = os.availableParallelism();
  if (n < 2) return load();
  taskset(String(n - 1), serverPid);
  taskset(n > 2 ? `0-${n - 2}` : '0', process.pid);
  try {
    return await load();
  } finally {
    taskset(`0-${n - 1}`, process.pid);
  }
}
