/**
 * Fleets written straight into a running service's database (SQLite or PostgreSQL), for journeys,
 * benches and screenshots that need many servers quickly: 10,000 rows take well under a second,
 * where the API would check and encrypt each one.
 *
 *   await seedServers(svc.databaseUrl, 10_000);                        // srv-00001… with tags and statuses
 *   await seedServers(svc.databaseUrl, 3, { name: (i) => `web-${i}` });
 *
 * Rows have no credentials (auth_type 'key', no key): they list, filter and sort like any other,
 * but connecting to them fails. Statuses are set as the heartbeat writer would leave them.
 */
import { createDatabase } from '../../../src/db/database.js';

export type SeedStatus = 'online' | 'offline' | 'unknown';

export interface SeedOptions {
  /** Name of the i-th server (0-based); default srv-00001… (sorts like its number). */
  name?: (i: number) => string;
  /** Tags of the i-th server; default one of four environments and one of five roles. */
  tags?: (i: number) => string[];
  /** Default: mostly online, every 7th offline, every 23rd never heard from. */
  status?: (i: number) => SeedStatus;
  host?: (i: number) => string;
  /** Rows per INSERT. */
  chunk?: number;
}

const ENVS = ['production', 'staging', 'canary', 'lab'];
const ROLES = ['web', 'db', 'cache', 'worker', 'edge'];

export const defaultSeed = {
  name: (i: number) => `srv-${String(i + 1).padStart(5, '0')}`,
  tags: (i: number) => [ENVS[i % ENVS.length], ROLES[i % ROLES.length]],
  status: (i: number): SeedStatus => (i % 23 === 22 ? 'unknown' : i % 7 === 6 ? 'offline' : 'online'),
  host: (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
};

/** Inserts `count` servers and returns their ids in order. */
export async function seedServers(databaseUrl: string, count: number, o: SeedOptions = {}): Promise<number[]> {
  const name = o.name ?? defaultSeed.name;
  const tags = o.tags ?? defaultSeed.tags;
  const status = o.status ?? defaultSeed.status;
  const host = o.host ?? defaultSeed.host;
  const chunk = o.chunk ?? 500;
  const handle = createDatabase(databaseUrl);
  const now = Date.now();
  try {
    const ids: number[] = [];
    await handle.db.transaction().execute(async (trx) => {
      for (let start = 0; start < count; start += chunk) {
        const rows = [];
        for (let i = start; i < Math.min(count, start + chunk); i++) {
          const s = status(i);
          // Online: a heartbeat seconds ago; offline: one an hour ago; unknown: never.
          const beat = s === 'online' ? new Date(now - (i % 50) * 1000) : s === 'offline' ? new Date(now - 3_600_000 - i * 1000) : null;
          const at = new Date(now - (count - i) * 60_000).toISOString();
          rows.push({
            name: name(i),
            host: host(i),
            port: 22,
            username: 'deploy',
            auth_type: 'key',
            tags: JSON.stringify(tags(i)),
            status: s,
            last_heartbeat_at: beat?.toISOString() ?? null,
            created_at: at,
            updated_at: at,
          });
        }
        const inserted = await trx.insertInto('servers').values(rows).returning('id').execute();
        ids.push(...inserted.map((r) => Number(r.id)));
      }
    });
    return ids;
  } finally {
    await handle.destroy();
  }
}
