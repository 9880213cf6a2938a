/**
 * Every environment variable the service reads, declared once: its type, its bounds, its default
 * and what it means. `loadConfig` validates the environment against this schema (a bad value
 * stops start-up with a message naming the variable), and `npm run docs:config` writes the
 * README's configuration table from it (a test keeps the two in step).
 */
import { Type, type Static } from 'typebox';

const Int = (min: number, max: number, def: number, description: string) => Type.Integer({ minimum: min, maximum: max, default: def, description });
const Str = (def: string | undefined, description: string, extra: Record<string, unknown> = {}) =>
  Type.String(def === undefined ? { description, ...extra } : { default: def, description, ...extra });
const Flag = (description: string) => Type.Optional(Type.String({ enum: ['0', '1'], description }));

/** The `default` column of the README when the default is computed rather than a literal. */
export const DEFAULT_NOTES: Record<string, string> = {
  DATABASE_URL: '`sqlite://<DATA_DIR>/fleet.db`',
  SECRET_KEY: 'generated, kept in `DATA_DIR/secret_key`',
  ENCRYPTION_KEY: 'generated, kept in `DATA_DIR/encryption_key`',
  ADMIN_PASSWORD: 'generated, printed once on stderr and kept in DATA_DIR/initial-admin-password until the first login',
  WALLPAPER_SOURCE_URL: 'the public daily-image archive',
  TRUST_PROXY: 'unset',
  FLEET_ALLOW_PRIVATE_FETCH: 'unset',
  FLEET_BACKGROUND_JOBS: 'on',
};

export const EnvSchema = Type.Object({
  PORT: Int(0, 65535, 8000, 'listen port'),
  HOST: Str('127.0.0.1', 'listen address'),
  DATA_DIR: Str('./data', 'SQLite file, generated keys, wallpaper cache, patrol env files; made 0700 at every start'),
  DATABASE_URL: Type.Optional(Str(undefined, '`sqlite://PATH` or `postgres://user:pass@host/db`', { pattern: '^(sqlite|postgres|postgresql)://' })),
  CACHE_URL: Str('memory://', '`memory://` (one process) or `redis://host:6379` (shared by workers)', { pattern: '^(memory|redis|rediss)://' }),
  CACHE_PREFIX: Str('fleet:', 'namespace of every cache key and channel'),
  SECRET_KEY: Type.Optional(Str(undefined, 'signs JWTs', { minLength: 16 })),
  ENCRYPTION_KEY: Type.Optional(Str(undefined, 'AES-256-GCM key for stored secrets (64 hex chars, 32 bytes base64, or a passphrase stretched with HKDF)', { minLength: 16 })),
  ADMIN_USERNAME: Str('admin', 'first administrator, created only when none exists', { minLength: 1, maxLength: 100 }),
  ADMIN_PASSWORD: Type.Optional(Str(undefined, 'password of that first administrator', { minLength: 8 })),
  WORKERS: Int(1, 64, 1, 'worker processes on one port; more than 1 requires `CACHE_URL=redis://…`'),
  TRUST_PROXY: Type.Optional(
    Str(undefined, 'behind a reverse proxy: a number N trusts N proxy hops (the N-th `X-Forwarded-For` address from the right; `1` for one proxy that appends the client) or a comma-separated list of proxy addresses/CIDRs; unset: the header is ignored', {
      pattern: '^([0-9]{1,2}|[0-9A-Fa-f:.]+(/[0-9]{1,3})?(\\s*,\\s*[0-9A-Fa-f:.]+(/[0-9]{1,3})?)*)$',
    }),
  ),
  DB_POOL_SIZE: Int(1, 1000, 10, 'PostgreSQL pool size (the setting `db_pool_size` wins at start-up)'),
  DB_MAX_OVERFLOW: Int(1, 1000, 20, 'PostgreSQL pool overflow (the setting `db_max_overflow` wins at start-up)'),
  MESSENGER_API_BASE: Str('https://api.telegram.org', 'bot API base (Telegram Bot API compatible)', { pattern: '^https?://' }),
  WALLPAPER_SOURCE_URL: Str('https://www.bing.com/HPImageArchive.aspx?format=js&idx=0&n=8', 'where wallpapers come from (a public http(s) archive; its images must be on its own origin)', {
    pattern: '^https?://',
  }),
  STAGING_PREFIX: Str('/tmp/svc_upload_', 'staging directories (ZIP uploads, push sources)', { pattern: '^/' }),
  UPLOAD_MAX_BYTES: Int(1, Number.MAX_SAFE_INTEGER, 104_857_600, 'single-file SFTP upload limit'),
  ZIP_MAX_BYTES: Int(1, Number.MAX_SAFE_INTEGER, 524_288_000, 'ZIP upload limit'),
  ZIP_MAX_UNCOMPRESSED: Int(1, Number.MAX_SAFE_INTEGER, 2 * 1024 ** 3, 'zip-bomb guard: total bytes an archive may inflate to'),
  RATE_LIMIT_AUTH_PER_MINUTE: Int(0, 1_000_000, 30, 'anonymous login/refresh/logout requests per caller address and minute (`0`: no limit); shared by workers on Redis'),
  RATE_LIMIT_PUBLIC_PER_MINUTE: Int(0, 1_000_000, 600, 'other anonymous requests (health, wallpapers, agent script) per address and minute; the agent heartbeat is never limited'),
  SSH_STALL_TIMEOUT: Int(3, 3600, 45, 'seconds an SSH connection may move no data and answer no keepalive before it counts as dead: rsync gives up (`--timeout`, which ends the rsync on the server too) and OpenSSH and the SSH pool send a keepalive every third of it'),
  FLEET_BACKGROUND_JOBS: Flag('`0` turns off the periodic loops (retry worker, scheduler, offline detector, subscription refresh) in this process'),
  FLEET_ALLOW_PRIVATE_FETCH: Flag('test only: `1` lets the subscription and wallpaper fetchers reach loopback'),
  LOG_LEVEL: Type.String({ enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info', description: 'pino level. `info`: errors, refused requests (4xx, one line each), state changes (one `audit` line per audited action, push batches finished) and start/stop; `debug` adds one line per successful request (heartbeats, polling, static files) and SSH connects. Secrets are redacted; URLs are logged without their query string' }),
});

export type Env = Static<typeof EnvSchema>;
