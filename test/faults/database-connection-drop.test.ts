/**
 * A PostgreSQL connection that drops while the service holds it (checked out of the pool between
 * two statements, as in a transaction) must not crash the process: pg emits 'error' on such a
 * client and the pool only listens on idle ones. The next query after the database is back works.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { HAS_POSTGRES, type PostgresBehindProxy, postgresBehindProxy } from '../helpers/postgres-proxy.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../modules/push/push-helpers.js';

describe.runIf(HAS_POSTGRES)('a PostgreSQL connection dropped while checked out', () => {
  let pg: PostgresBehindProxy;
  let proxy: TcpProxy;
  let h: DatabaseHandle;

  beforeAll(async () => {
    pg = await postgresBehindProxy();
    proxy = pg.proxy;
    h = createDatabase(pg.url);
  });
  afterAll(async () => {
    await h?.destroy();
    await pg?.close();
  });

  it('is no uncaught exception, and the pool serves queries again once the database is back', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      await h.db.connection().execute(async (conn) => {
        await sql`select 1`.execute(conn);
        proxy.down();
        // The client notices the closed socket while nobody is querying on it.
        await new Promise((r) => setTimeout(r, 500));
      });
      proxy.up();
      await until(async () => (await sql`select 1`.execute(h.db).then(() => true, () => false)), 10_000);
      expect(uncaught).toEqual([]);
    } finally {
      proxy.up();
      process.off('uncaughtException', onUncaught);
    }
  }, 30_000);
});
