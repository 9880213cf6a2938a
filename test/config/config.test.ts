/**
 * The environment is validated against one schema (a bad value names its variable), loading it
 * writes nothing, and the first-start step makes DATA_DIR private and keeps the keys in it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, readEnvConfig } from '../../src/config/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-cfg-'));
  dirs.push(d);
  return d;
};
let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('environment', () => {
  it('has the documented defaults and the version of package.json', () => {
    const c = readEnvConfig({});
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(c).toMatchObject({
      host: '127.0.0.1', port: 8000, cacheUrl: 'memory://', cachePrefix: 'fleet:', workers: 1, trustProxy: false,
      stagingPrefix: '/tmp/svc_upload_', uploadMaxBytes: 104_857_600, zipMaxBytes: 524_288_000, logLevel: 'info',
      backgroundJobs: true, allowPrivateFetch: false, version: pkg.version, anonRateLimit: { auth: 30, public: 600 },
    });
    expect(c.databaseUrl).toBe(`sqlite://${path.resolve('data', 'fleet.db')}`);
    // Empty values count as unset.
    expect(readEnvConfig({ PORT: '', LOG_LEVEL: '' })).toMatchObject({ port: 8000, logLevel: 'info' });
  });

  it.each([
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ WORKERS: '0' }, /WORKERS/],
    [{ CACHE_URL: 'mysql://x' }, /CACHE_URL/],
    [{ DATABASE_URL: 'mongodb://x' }, /DATABASE_URL/],
    [{ MESSENGER_API_BASE: 'ftp://x' }, /MESSENGER_API_BASE/],
    [{ STAGING_PREFIX: 'relative_' }, /STAGING_PREFIX/],
    [{ FLEET_BACKGROUND_JOBS: 'off' }, /FLEET_BACKGROUND_JOBS/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD/],
    [{ WORKERS: '2' }, /WORKERS > 1 needs a shared cache/],
  ])('%j is refused at start naming the variable', (env, message) => {
    expect(() => readEnvConfig(env)).toThrow(message);
  });

  it('reading the environment writes nothing', () => {
    const dir = path.join(tmp(), 'not-yet');
    readEnvConfig({ DATA_DIR: dir });
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('first start', () => {
  it('makes an existing 0755 DATA_DIR private and keeps keys, database and WAL at 0600', async () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'fleet.db'), '');
    fs.chmodSync(path.join(dir, 'fleet.db'), 0o644);
    t = await makeTestApp({ env: { DATA_DIR: dir } });
    await t.token();
    expect(mode(dir)).toBe(0o700);
    for (const f of ['secret_key', 'encryption_key', 'fleet.db', 'fleet.db-wal', 'fleet.db-shm']) {
      expect(mode(path.join(dir, f)), f).toBe(0o600);
    }
  });

  it('keeps the keys across starts; a process that may not create them fails clearly when they are missing', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    const again = loadConfig({ DATA_DIR: dir }, { create: false });
    expect(again.secretKey).toBe(first.secretKey);
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(() => loadConfig({ DATA_DIR: tmp() }, { create: false })).toThrow(/secret_key is missing: the first start/);
    // Keys from the environment win and are never written.
    const keyless = tmp();
    const envKeys = loadConfig({ DATA_DIR: keyless, SECRET_KEY: 'a-secret-from-the-environment', ENCRYPTION_KEY: 'a-passphrase-from-the-environment' });
    expect(envKeys.secretKey).toBe('a-secret-from-the-environment');
    expect(fs.readdirSync(keyless)).toEqual([]);
  });
});
