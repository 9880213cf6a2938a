/**
 * A bare Fastify peer in its own plain-node process (no tsx, no TypeScript loader), as lean as a
 * Fastify service gets: the baseline for the memory and zip-extract scenarios. `code` is an ES
 * module that listens on a port of its choice and prints the port as its first line.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BareNode {
  url: string;
  pid: number;
  /** Resident set size now, in bytes (from /proc). */
  rss(): number;
  stop(): Promise<void>;
}

/** Resident set size of a process, in bytes (from /proc). */
export function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
}

export async function startBareNode(code: string, env: Record<string, string> = {}): Promise<BareNode> {
  // Run from the project root, so its imports resolve to the project's own node_modules.
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      void exited.then(() => reject(new Error(`the bare Fastify process exited with ${child.exitCode}`)));
    });
    return { url: `http://127.0.0.1:${port}`, pid: child.pid!, rss: () => rssOf(child.pid!), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
