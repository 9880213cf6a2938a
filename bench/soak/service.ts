/**
 * The service as `npm start` runs it (`node dist/server/server.js`, built first) in its own process
 * group, with every line it writes kept in a log file and classified as it arrives: a pino line
 * at level >= 50 (error, fatal), or any line that is not pino JSON (a crash's stack trace, a
 * Node warning), is an error line of the soak.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';
import { freePort } from '../../test/fixtures/sshd.js';

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SOAK_ADMIN = { username: 'admin', password: 'soak-password-1' };

/** Lines kept verbatim for the report; the log file has them all. */
const KEEP_ERRORS = 20;

export interface ServiceLog {
  lines: number;
  byLevel: Record<string, number>;
  errorLines: number;
  firstErrors: string[];
  file: string;
}

export interface SoakService {
  url: string;
  port: number;
  pid: number;
  log: ServiceLog;
  /** The process and, in a cluster, its workers (the node processes running server.js). */
  pids(): number[];
  stop(): Promise<void>;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

export function buildService(): void {
  buildIfStale(root, 'service');
}

function watch(stream: NodeJS.ReadableStream, log: ServiceLog, out: fs.WriteStream): void {
  readline.createInterface({ input: stream }).on('line', (line) => {
    out.write(`${line}\n`);
    log.lines++;
    let level: number | null = null;
    try {
      const parsed = JSON.parse(line) as { level?: unknown };
      if (typeof parsed.level === 'number') level = parsed.level;
    } catch {
      // not pino: counted as an error line below
    }
    const name = level === null ? 'not-json' : (LEVELS[level] ?? String(level));
    log.byLevel[name] = (log.byLevel[name] ?? 0) + 1;
    if (level === null || level >= 50) {
      log.errorLines++;
      if (log.firstErrors.length < KEEP_ERRORS) log.firstErrors.push(line.slice(0, 2000));
    }
  });
}

/** Direct children of `pid` whose command line contains `needle` (cluster workers, not rsync/ssh). */
function childrenRunning(pid: number, needle: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

export async function startService(name: string, env: Record<string, string>, logDir: string): Promise<SoakService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-soak-'));
  const port = await freePort();
  const script = path.join(root, 'dist', 'server', 'server.js');
  const child: ChildProcess = spawn(process.execPath, [script], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_USERNAME: SOAK_ADMIN.username,
      ADMIN_PASSWORD: SOAK_ADMIN.password,
      LOG_LEVEL: 'info',
      // Nothing may reach the outside world.
      MESSENGER_API_BASE: 'http://127.0.0.1:9',
      WALLPAPER_SOURCE_URL: 'http://127.0.0.1:9/archive',
      ...env,
    },
  });
  fs.mkdirSync(logDir, { recursive: true });
  const file = path.join(logDir, `soak-${name}.log`);
  const out = fs.createWriteStream(file);
  const log: ServiceLog = { lines: 0, byLevel: {}, errorLines: 0, firstErrors: [], file: path.relative(root, file) };
  watch(child.stdout!, log, out);
  watch(child.stderr!, log, out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
    out.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${log.firstErrors.join('\n')}`);
      if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
      if (i > 600) throw new Error('the service did not answer /health within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const pid = child.pid!;
  return { url, port, pid, log, pids: () => [pid, ...childrenRunning(pid, script)], stop };
}
