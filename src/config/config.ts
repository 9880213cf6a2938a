/**
 * The service's configuration: the environment, validated against `EnvSchema` (pure: nothing is
 * created or written here), and the keys from the data directory, which `prepareDataDir` reads
 * or (on a first start) generates. `loadConfig` does both, for the entry point and tests.
 */
import path from 'node:path';
import envSchema from 'env-schema';
import { normalizeIp } from '../core/network.js';
import { prepareDataDir } from './data-dir.js';
import { EnvSchema, type Env } from './env.schema.js';
import { VERSION } from './version.js';

/** Fastify's `trustProxy`: false, a number of hops, or the proxies' addresses/CIDRs. */
export type TrustProxy = false | number | string[];

export interface EnvConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  cacheUrl: string;
  /** Namespace for every cache key and channel (lets test runs share one Redis). */
  cachePrefix: string;
  /** From the environment when given; otherwise `prepareDataDir` reads or generates them. */
  secretKeyFromEnv: string | null;
  encryptionKeyFromEnv: string | null;
  adminUsername: string;
  /** When unset and no admin exists, a password is generated and printed once. */
  adminPassword: string | null;
  workers: number;
  trustProxy: TrustProxy;
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
  /** Seconds without data or a keepalive answer after which an SSH connection (and rsync over it) counts as dead. */
  sshStallTimeoutS: number;
  /** Start background loops (retry worker, scheduler, offline detector...). Tests may turn them off. */
  backgroundJobs: boolean;
  /** Anonymous requests per caller address and minute: login/refresh/logout, other public routes (0 = no limit). */
  anonRateLimit: { auth: number; public: number };
  version: string;
}

export interface AppConfig extends EnvConfig {
  secretKey: string;
  encryptionKey: Buffer;
}

function trustProxyOf(raw: string | undefined): TrustProxy {
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [addr, bits] = e.split('/');
    const ip = normalizeIp(addr);
    const max = ip?.kind() === 'ipv6' ? 128 : 32;
    if (!ip || (bits !== undefined && !(Number(bits) >= 0 && Number(bits) <= max))) {
      throw new Error(`TRUST_PROXY: "${e}" is not a proxy address or CIDR (use a number of hops, e.g. 1, or a comma-separated list)`);
    }
  }
  return entries;
}

/** Validates the environment (empty values count as unset); throws naming the variable. */
export function readEnvConfig(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const given = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && v !== '' && k in EnvSchema.properties));
  let e: Env;
  try {
    e = envSchema<Env>({ schema: structuredClone(EnvSchema), data: given, env: false, dotenv: false });
  } catch (err) {
    throw new Error(`Invalid configuration: ${(err as Error).message.replaceAll('env/', '')}`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.WORKERS > 1 && !e.CACHE_URL.startsWith('redis')) {
    throw new Error('WORKERS > 1 needs a shared cache: set CACHE_URL=redis://… (memory:// is per process)');
  }
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'fleet.db')}`,
    cacheUrl: e.CACHE_URL,
    cachePrefix: e.CACHE_PREFIX,
    secretKeyFromEnv: e.SECRET_KEY ?? null,
    encryptionKeyFromEnv: e.ENCRYPTION_KEY ?? null,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD ?? null,
    workers: e.WORKERS,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    messengerApiBase: e.MESSENGER_API_BASE.replace(/\/+$/, ''),
    wallpaperSourceUrl: e.WALLPAPER_SOURCE_URL,
    allowPrivateFetch: e.FLEET_ALLOW_PRIVATE_FETCH === '1',
    stagingPrefix: e.STAGING_PREFIX,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    zipMaxBytes: e.ZIP_MAX_BYTES,
    zipMaxUncompressed: e.ZIP_MAX_UNCOMPRESSED,
    dbPoolSize: e.DB_POOL_SIZE,
    dbMaxOverflow: e.DB_MAX_OVERFLOW,
    logLevel: e.LOG_LEVEL,
    sshStallTimeoutS: e.SSH_STALL_TIMEOUT,
    backgroundJobs: e.FLEET_BACKGROUND_JOBS !== '0',
    anonRateLimit: { auth: e.RATE_LIMIT_AUTH_PER_MINUTE, public: e.RATE_LIMIT_PUBLIC_PER_MINUTE },
    version: VERSION,
  };
}

/**
 * The environment plus the keys. `create` (a `single` process or a cluster's primary) makes the
 * data directory and generates missing keys; a cluster worker only reads what its primary made.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { create?: boolean } = {}): AppConfig {
  const base = readEnvConfig(env);
  return { ...base, ...prepareDataDir(base, { create: opts.create ?? true }) };
}
