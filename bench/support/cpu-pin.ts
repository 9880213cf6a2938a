/**
 * Pins a measured load: the server under test (every thread of its process) to the last CPU this
 * process may use, the load generator (every thread of this process) to the others, for the
 * measured window only. Unpinned, the scheduler put both on one CPU for part of some rounds, and
 * on a two-core machine a round's figures moved by half from one process to the next
 * (api-overhead rounds 0.58 to 0.94 in one run; a bare Fastify child alone 16 to 32 µs of CPU per
 * request). Both sides of a comparison are pinned alike. This process starts no child (rsync,
 * ssh) during a pinned window, and afterwards gets back every CPU it had.
 *
 * util-linux's `taskset` does the pinning; without it the load fails loudly (as a missing peer
 * tool does). A one-CPU machine has nothing to pin, and the window runs unpinned.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** The CPUs this process may run on (a container's cpuset, or every CPU), from /proc. */
function allowedCpus(): number[] {
  const line = /^Cpus_allowed_list:\s*(.+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '';
  return line.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return Number.isInteger(a) ? Array.from({ length: (Number.isInteger(b) ? b : a) - a + 1 }, (_, i) => a + i) : [];
  });
}

/** How the measured loads were pinned, for `details`. */
export function pinningNote(): string {
  const cpus = allowedCpus();
  return cpus.length < 2 ? 'unpinned (one CPU)' : `server on CPU ${cpus.at(-1)}, load generator on CPU ${cpus.slice(0, -1).join(',')} (taskset, every thread)`;
}

function taskset(cpus: number[], pid: number): void {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus.join(','), String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') throw new Error('taskset is needed to pin the measured loads: apt-get install util-linux');
    throw new Error(`taskset ${cpus.join(',')} ${pid} failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

/** Runs `load` with the server `pid` and this process pinned apart (see above). */
export async function pinnedApart<T>(serverPid: number, load: () => Promise<T>): Promise<T> {
  const cpus = allowedCpus();
  if (cpus.length < 2) return load();
  taskset(cpus.slice(-1), serverPid);
  taskset(cpus.slice(0, -1), process.pid);
  try {
    return await load();
  } finally {
    taskset(cpus, process.pid);
  }
}
