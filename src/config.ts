/**
 * Configuration from the environment (CONTRACT §1). Keys that are not given are generated once
 * and kept in DATA_DIR (mode 0600) so restarts keep sessions and can decrypt stored secrets.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEncryptionKey } from './core/crypto.js';
import { errCode } from './core/errors.js';

export interface AppConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  cacheUrl: string;
  /** Namespace for every cache key and channel (lets test runs share one Redis). */
  cachePrefix: string;
  secretKey: string;
  encryptionKey: Buffer;
  adminUsername: string;
  /** When unset and no admin exists, a password is generated and printed once. */
  adminPassword: string | null;
  workers: number;
  trustProxy: boolean;
  messengerApiBase: string;
  wallpaperSourceUrl: string;
  allowPrivateFetch: boolean;
  stagingPrefix: string;
  uploadMaxBytes: number;
  zipMaxBytes: number;
  zipMaxUncompressed: number;
  dbPoolSize: number;
  dbMaxOverflow: number;
  logLevel: string;
  /** Run migrations and first-start bootstrap in this process (false in cluster workers). */
  bootstrap: boolean;
  /** Start background loops (retry worker, scheduler, offline detector...). Tests may turn them off. */
  backgroundJobs: boolean;
  /** Anonymous requests per caller address and minute: login/refresh/logout, other public routes (0 = no limit). */
  anonRateLimit: { auth: number; public: number };
  version: string;
}

export const VERSION = '0.1.0';

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(raw)})`);
  }
  return n;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

/** Reads DATA_DIR/<name>, creating it with `make()` (mode 0600) the first time. */
function keptSecret(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
  const value = make();
  // 'wx' so two processes starting at once cannot overwrite each other's key.
  try {
    fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secretKey = env.SECRET_KEY || keptSecret(dataDir, 'secret_key', () => crypto.randomBytes(48).toString('base64url'));
  const encryptionKey = parseEncryptionKey(
    env.ENCRYPTION_KEY || keptSecret(dataDir, 'encryption_key', () => crypto.randomBytes(32).toString('hex')),
  );
  const workers = intEnv(env, 'WORKERS', 1, 1, 64);
  const cacheUrl = env.CACHE_URL || 'memory://';
  if (workers > 1 && !cacheUrl.startsWith('redis')) {
    throw new Error('WORKERS > 1 needs a shared cache: set CACHE_URL=redis://… (memory:// is per process)');
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: intEnv(env, 'PORT', 8000, 0, 65535),
    dataDir,
    databaseUrl: env.DATABASE_URL || `sqlite://${path.join(dataDir, 'fleet.db')}`,
    cacheUrl,
    cachePrefix: env.CACHE_PREFIX || 'fleet:',
    secretKey,
    encryptionKey,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || null,
    workers,
    trustProxy: truthy(env.TRUST_PROXY),
    messengerApiBase: (env.MESSENGER_API_BASE || 'https://api.telegram.org').replace(/\/+$/, ''),
    wallpaperSourceUrl:
      env.WALLPAPER_SOURCE_URL || 'https://www.bing.com/HPImageArchive.aspx?format=js&idx=0&n=8',
    allowPrivateFetch: env.FLEET_ALLOW_PRIVATE_FETCH === '1',
    stagingPrefix: env.STAGING_PREFIX || '/tmp/svc_upload_',
    uploadMaxBytes: intEnv(env, 'UPLOAD_MAX_BYTES', 104_857_600, 1, Number.MAX_SAFE_INTEGER),
    zipMaxBytes: intEnv(env, 'ZIP_MAX_BYTES', 524_288_000, 1, Number.MAX_SAFE_INTEGER),
    zipMaxUncompressed: intEnv(env, 'ZIP_MAX_UNCOMPRESSED', 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    dbPoolSize: intEnv(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbMaxOverflow: intEnv(env, 'DB_MAX_OVERFLOW', 20, 1, 1000),
    logLevel: env.LOG_LEVEL || 'info',
    bootstrap: true,
    backgroundJobs: env.FLEET_BACKGROUND_JOBS !== '0',
    anonRateLimit: {
      auth: intEnv(env, 'RATE_LIMIT_AUTH_PER_MINUTE', 30, 0, 1_000_000),
      public: intEnv(env, 'RATE_LIMIT_PUBLIC_PER_MINUTE', 600, 0, 1_000_000),
    },
    version: VERSION,
  };
}
