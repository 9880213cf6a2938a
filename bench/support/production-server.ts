/**
 * The service as operators run it (`npm start`: the built bundle, `node dist/server/server.js`)
 * in its own process, for figures that belong to the service alone, such as its RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';
import { freePort } from '../../test/fixtures/sshd.js';
import { BENCH_ADMIN, benchLogin } from './app.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * node's arguments exactly as `npm start` passes them (read from package.json's start script, so
 * its V8 flags are measured too), e.g. `['--max-semi-space-size=2', 'dist/server/server.js']`.
 */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [cmd, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (cmd !== 'node') throw new Error(`npm start runs "${cmd}", expected node`);
  return args;
}

export interface ProductionServer {
  url: string;
  pid: number;
  token: string;
  /** Resident set size now, in bytes (from /proc). */
  rss(): number;
  stop(): Promise<void>;
}

/** Builds dist/ when stale (as `npm start` does), starts it on a free port and logs in as the first admin. */
export async function startProductionServer(env: Record<string, string>): Promise<ProductionServer> {
  buildIfStale(root, 'service');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-prod-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, npmStartArgs(), {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), ADMIN_USERNAME: BENCH_ADMIN.username, ADMIN_PASSWORD: BENCH_ADMIN.password, LOG_LEVEL: 'warn', FLEET_BACKGROUND_JOBS: '0', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 300) throw new Error('the service did not answer /health within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const token = await benchLogin(url);
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
    return { url, pid: child.pid!, token, rss, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
