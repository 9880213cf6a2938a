/** A real app on a temp DATA_DIR, listening on a random loopback port, for benchmarks. */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';

export const BENCH_ADMIN = { username: 'admin', password: 'bench-password-1' };

export interface BenchApp {
  app: FastifyInstance;
  url: string;
  token: string;
  /** The app's SSH_STALL_TIMEOUT (what its rsync runs are built with). */
  stallTimeoutSec: number;
  close(): Promise<void>;
}

/** Logs in as BENCH_ADMIN on the service at `url`; returns the access token. */
export async function benchLogin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!res.ok) throw new Error(`bench login answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface BenchAppOptions {
  /** Log as production does (pino at LOG_LEVEL, default info, redaction, one line per refused request), to /dev/null; default off. */
  productionLogging?: boolean;
}

export async function startBenchApp(env: Record<string, string> = {}, opts: BenchAppOptions & BuildOptions = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    FLEET_BACKGROUND_JOBS: '0',
    // The limiter stays on (its cost is measured) but high enough for the scenarios' own logins.
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    ...env,
  });
  const { productionLogging, ...build } = opts;
  const app = await buildApp(config, { logger: productionLogging ? { file: '/dev/null' } : false, print: () => {}, ...build });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const token = await benchLogin(url);
  return {
    app,
    url,
    token,
    stallTimeoutSec: config.sshStallTimeoutS,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One request on a fresh connection: a long push may outlast the server's keep-alive timeout,
 * and a reused socket closed meanwhile would fail a non-idempotent POST.
 */
export function api(app: BenchApp, method: string, url: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${app.url}${url}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${app.token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 500)}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
