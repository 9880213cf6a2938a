/** Builds a real app on a temp DATA_DIR for tests, on the requested database and cache. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import { createPostgresDatabase, uniqueSuffix, type CacheKind, type DbKind } from './targets.js';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface TestAppOptions extends BuildOptions {
  db?: DbKind;
  cache?: CacheKind;
  env?: Record<string, string>;
  config?: Partial<AppConfig>;
  /** Share a database/cache/data dir with another test app (two "workers"). */
  shareWith?: TestApp;
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  /** Logs in as the first admin and returns the access token. */
  token(): Promise<string>;
  /** Authorization header for the first admin. */
  auth(): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

export async function makeTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const cleanups: Array<() => Promise<void> | void> = [];
  let config: AppConfig;
  if (opts.shareWith) {
    config = { ...opts.shareWith.config, ...opts.config };
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      DATA_DIR: dataDir,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      FLEET_BACKGROUND_JOBS: '0',
      // Suites log in from one address far more often than a person does; test/http/rate-limit.test.ts sets its own.
      RATE_LIMIT_AUTH_PER_MINUTE: '0',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
      ...opts.env,
    };
    if (opts.db === 'postgres') {
      const tmp = await createPostgresDatabase();
      cleanups.push(() => tmp.drop());
      env.DATABASE_URL = tmp.url;
    }
    if (opts.cache === 'redis') {
      if (!process.env.TEST_CACHE_URL) throw new Error('TEST_CACHE_URL is not set');
      env.CACHE_URL = process.env.TEST_CACHE_URL;
      env.CACHE_PREFIX = `${process.env.TEST_CACHE_PREFIX ?? 'test:'}${uniqueSuffix()}:`;
    }
    config = { ...loadConfig(env), ...opts.config };
  }
  const app = await buildApp(config, { logger: opts.logger ?? false, print: () => {}, ...opts });
  await app.ready();

  let cached: string | null = null;
  const t: TestApp = {
    app,
    config,
    dataDir: config.dataDir,
    async token() {
      if (cached) return cached;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      });
      if (res.statusCode !== 200) throw new Error(`test login failed: ${res.statusCode} ${res.body}`);
      cached = res.json().access_token as string;
      return cached;
    },
    async auth() {
      return { authorization: `Bearer ${await t.token()}` };
    },
    async close() {
      await app.close();
      // Shared resources belong to the app that created them.
      if (!opts.shareWith) for (const fn of cleanups.reverse()) await fn();
    },
  };
  return t;
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T;
}
