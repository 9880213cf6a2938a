/**
 * A bench server in a child process (`serve-app.ts`, `serve-bare.ts`, `serve-queries.ts`), so the
 * load generator or client in the parent does not share the server's CPU and event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ChildApp {
  child: ChildProcess;
  url: string;
  token: string;
  /** The app's DATABASE_URL (serve-app only), for seeding from the parent. */
  databaseUrl?: string;
  /** CPU time (user + system, ms) the child has used so far, from /proc: its cost per request, whatever the load generator can drive. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** CPU time (user + system) of process `pid` in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `nodeArgs` and BENCH_NODE_ARGS (e.g. "--cpu-prof") are passed to the child's node, for profiling. */
export async function startChildApp(script: 'serve-app.ts' | 'serve-bare.ts' | 'serve-queries.ts', env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ChildApp> {
  const extra = [...nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', path.join(here, script)], {
    cwd: path.join(here, '..', '..'),
    env: { ...process.env, BENCH_APP_ENV: JSON.stringify(env) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  const info = JSON.parse(line) as { url: string; token: string; databaseUrl?: string };
  let stopped: Promise<void> | null = null;
  return {
    child,
    ...info,
    cpuMs: () => processCpuMs(child.pid!),
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin?.end();
      });
      return stopped;
    },
  };
}
