/** The real entry point (`src/server.ts`) as a child process, for tests of processes and roles. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const TSX = path.resolve('node_modules/.bin/tsx');

export interface ServiceProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** Children and temp dirs to clean up after each test. */
export class ProcessScope {
  private readonly children: ChildProcess[] = [];
  private readonly dirs: string[] = [];

  start(env: Record<string, string>): ServiceProcess {
    // Its own process group: tsx runs the service as a child, and a cluster forks workers; cleanup
    // kills the whole group so nothing outlives the test.
    const child = spawn(TSX, ['src/server.ts'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'pipe', detached: true });
    this.children.push(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, out: () => out, err: () => err };
  }

  tempDir(): string {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-srv-'));
    this.dirs.push(d);
    return d;
  }

  cleanup(): void {
    for (const c of this.children.splice(0)) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    for (const d of this.dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(port: number, ms = 20_000): Promise<Record<string, unknown>> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return (await res.json()) as Record<string, unknown>;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('service did not become healthy');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Direct children of a process (from /proc), e.g. a cluster primary's workers. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may contain spaces, so parse after ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Pids whose command line contains `needle`. */
export function pidsWithArg(needle: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

export function parentPid(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}
