/**
 * A bench server in a child process (`serve-app.ts` or `serve-bare.ts`), so the load generator or
 * client in the parent does not share the server's CPU and event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
  stop(): Promise<void>;
}

/** BENCH_NODE_ARGS (e.g. "--cpu-prof") is passed to the child's node, for profiling. */
export async function startChildApp(script: 'serve-app.ts' | 'serve-bare.ts', env: Record<string, string> = {}): Promise<ChildApp> {
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
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
