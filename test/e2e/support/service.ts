/**
 * The real service for browser journeys, benches and scripts: `src/server.ts` run from source (tsx)
 * as a child process in its own process group, on a free port, with its own temp DATA_DIR.
 *
 *   const svc = await startConsoleService();          // admin / e2e-admin-password
 *   const token = await svc.login();                  // access token of the first admin
 *   await svc.api('POST', '/api/admins', { username: 'b', password: 'pw-123456' }, { token });
 *   ... svc.url, svc.databaseUrl (seed it directly), svc.dataDir ...
 *   await svc.halt(); ... await svc.resume();        // the service down for a while (same port and data)
 *   await svc.stop();                                 // kills the group, drops its database, removes the dir
 *
 * TRUST_PROXY=1: every journey (browser context or `api` call) sends its own X-Forwarded-For, so
 * lockouts and allowlist decisions stay inside the journey. Rate limits are off. When the suite runs
 * on PostgreSQL/Redis (TEST_DATABASE_URL / TEST_CACHE_URL), the service gets its own database
 * (dropped afterwards) and its own Redis key prefix.
 *
 * The service runs from a snapshot of src/ and web/dist taken at start (node_modules linked): it
 * lists web/dist's files once when it starts, so a `vite build` elsewhere during a run (another
 * terminal, a watch) would otherwise take the assets away from under the open pages.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessScope, freePort, waitHealthy } from '../../helpers/service-process.js';
import { createPostgresDatabase, uniqueSuffix, type TempDatabase } from '../../helpers/targets.js';

export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password' };

/** The address API calls claim to come from unless they name one (see `ip` below). */
export const DEFAULT_IP = '198.51.100.1';

export interface ApiOptions {
  /** Bearer token (an access token); none for public endpoints. */
  token?: string;
  /** Sent as X-Forwarded-For (the service trusts one proxy hop). */
  ip?: string;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface ConsoleService {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  dataDir: string;
  /** The service's DATABASE_URL (SQLite file in dataDir, or its own PostgreSQL database). */
  databaseUrl: string;
  admin: { username: string; password: string };
  /** One JSON request; never throws on an HTTP status (check `status`). */
  api<T = unknown>(method: string, urlPath: string, body?: unknown, o?: ApiOptions): Promise<ApiAnswer<T>>;
  /** Logs in (default: the first admin) and returns the token pair; throws unless 200. */
  loginPair(username?: string, password?: string, o?: ApiOptions & { totp_code?: string }): Promise<TokenPair>;
  /** Like loginPair, only the access token. */
  login(username?: string, password?: string): Promise<string>;
  /** The service's stdout/stderr so far (for failure messages). */
  logs(): string;
  /** Kills the service (as a crash would) and waits until its port refuses; data and port are kept. */
  halt(): Promise<void>;
  /** Starts the halted service again on the same port and data; resolves once it is healthy. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment for the service (wins over the defaults here). */
  env?: Record<string, string>;
  admin?: { username: string; password: string };
}

export async function startConsoleService(o: StartOptions = {}): Promise<ConsoleService> {
  const scope = new ProcessScope();
  const children: number[] = [];
  const admin = o.admin ?? E2E_ADMIN;
  const dataDir = scope.tempDir();
  let pgDb: TempDatabase | null = null;
  try {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      TRUST_PROXY: '1',
      RATE_LIMIT_AUTH_PER_MINUTE: '0',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
      // No wallpaper downloads from the internet during a journey (loopback is refused quickly).
      WALLPAPER_SOURCE_URL: 'http://127.0.0.1:9/archive',
      LOG_LEVEL: 'warn',
    };
    if (process.env.TEST_DATABASE_URL) {
      pgDb = await createPostgresDatabase();
      env.DATABASE_URL = pgDb.url;
    }
    if (process.env.TEST_CACHE_URL) {
      env.CACHE_URL = process.env.TEST_CACHE_URL;
      env.CACHE_PREFIX = `${process.env.TEST_CACHE_PREFIX ?? 'test:'}e2e:${uniqueSuffix()}:`;
    }
    Object.assign(env, o.env);
    const port = await freePort();
    env.PORT = String(port);
    const root = await snapshot(scope.tempDir());
    let earlier = '';
    let proc: Spawned | null = null;
    const logs = () => `${earlier}${proc ? `${proc.out()}${proc.err()}` : ''}`;
    /** Starts the service; resolves once it is healthy. */
    const run = async () => {
      const started = spawnService(root, env);
      proc = started;
      children.push(started.pid);
      const early = started.exited.then((code) => {
        throw new Error(`the service exited (${code}) before it was healthy:\n${logs()}`);
      });
      early.catch(() => {}); // an exit after start-up (at stop) is expected; the race below sees an early one
      await Promise.race([waitHealthy(port, 60_000), early]);
    };
    await run();

    const url = `http://127.0.0.1:${port}`;
    const api = async <T>(method: string, urlPath: string, body?: unknown, opt: ApiOptions = {}): Promise<ApiAnswer<T>> => {
      const headers: Record<string, string> = { 'x-forwarded-for': opt.ip ?? DEFAULT_IP };
      if (opt.token) headers.authorization = `Bearer ${opt.token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed as T };
    };
    const loginPair = async (username = admin.username, password = admin.password, opt: ApiOptions & { totp_code?: string } = {}) => {
      const res = await api<TokenPair>('POST', '/api/auth/login', { username, password, ...(opt.totp_code ? { totp_code: opt.totp_code } : {}) }, opt);
      if (res.status !== 200) throw new Error(`login of ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    let stopped = false;
    return {
      url,
      port,
      dataDir,
      databaseUrl: env.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'fleet.db')}`,
      admin,
      api,
      loginPair,
      login: async (u, p) => (await loginPair(u, p)).access_token,
      logs,
      async halt() {
        const halted = proc;
        if (!halted) return;
        killGroups(children);
        await halted.exited;
        earlier = logs();
        proc = null;
      },
      resume: run,
      async stop() {
        if (stopped) return;
        stopped = true;
        killGroups(children);
        scope.cleanup();
        await pgDb?.drop();
      },
    };
  } catch (err) {
    killGroups(children);
    scope.cleanup();
    await pgDb?.drop();
    throw err;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * A runnable copy of the service: package.json (the service finds web/dist next to it), src/ and
 * web/dist copied, node_modules linked. A build caught half-written (its manifest names a file
 * that is not there yet) is copied again.
 */
async function snapshot(dir: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'web'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    fs.cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const dist = path.join(dir, 'web', 'dist');
    try {
      fs.cpSync(path.join(ROOT, 'web', 'dist'), dist, { recursive: true });
      const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
      const missing = Object.values(manifest).flatMap((c) => [c.file, ...(c.css ?? [])]).filter((f) => !fs.existsSync(path.join(dist, f)));
      if (missing.length === 0 && fs.existsSync(path.join(dist, 'index.html'))) return dir;
    } catch {
      // web/dist was being rewritten while we copied it
    }
    if (attempt >= 20) throw new Error('web/dist is missing or incomplete: run `npx vite build --config web/vite.config.ts`');
    await sleep(500);
  }
}

interface Spawned {
  pid: number;
  exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** `tsx src/server.ts` in `root`, in its own process group (tsx runs the service as its child). */
function spawnService(root: string, env: Record<string, string>): Spawned {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/server.ts'], { cwd: root, env: { ...process.env, ...env }, stdio: 'pipe', detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { pid: child.pid!, exited, out: () => out, err: () => err };
}

function killGroups(pids: number[]): void {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
}
