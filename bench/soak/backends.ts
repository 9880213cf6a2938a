/**
 * The shared backends of the PostgreSQL + Redis configuration: a database of the soak's own
 * (created, then dropped with its connections) and a key prefix of its own (its keys deleted
 * afterwards), so a soak leaves nothing behind in servers others use.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

export interface Backends {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function ownBackends(): Promise<Backends> {
  const base = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const cacheUrl = process.env.SOAK_CACHE_URL ?? 'redis://127.0.0.1:6379';
  const suffix = randomBytes(4).toString('hex');
  const name = `fleet_soak_${suffix}`;
  const prefix = `soak:${suffix}:`;
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (err) {
    throw new Error(`PostgreSQL at ${base} is needed for the cluster configuration (set SOAK_DATABASE_URL): ${err instanceof Error ? err.message : err}`);
  } finally {
    await admin.end().catch(() => {});
  }
  const redis = new Redis(cacheUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`Redis at ${cacheUrl} is needed for the cluster configuration (set SOAK_CACHE_URL): ${err instanceof Error ? err.message : err}`);
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: u.toString(), CACHE_URL: cacheUrl, CACHE_PREFIX: prefix },
    async drop() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        if (keys.length) await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
