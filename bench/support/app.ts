/** A real app on a temp DATA_DIR, listening on a random loopback port, for benchmarks. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

export const BENCH_ADMIN = { username: 'admin', password: 'bench-password-1' };

export interface BenchApp {
  app: FastifyInstance;
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    FLEET_BACKGROUND_JOBS: '0',
    ...env,
  });
  const app = await buildApp(config, { logger: false, print: () => {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return {
    app,
    url,
    token,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
