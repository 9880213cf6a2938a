/**
 * A PostgreSQL connection that drops while the service holds it (checked out of the pool between
 * two statements, as in a transaction) must not crash the process: pg emits 'error' on such a
 * client and the pool only listens on idle ones. The next query after the database is back works.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createPostgresDatabase, type TempDatabase } from '../helpers/targets.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../modules/push/push-helpers.js';

const PG = Boolean(process.env.TEST_DATABASE_URL);
if (!PG) console.warn('database outage tests skipped: they need TEST_DATABASE_URL (PostgreSQL), as .ci/run sets');

describe.runIf(PG)('a PostgreSQL connection dropped while checked out', () => {
  let pgdb: TempDatabase;
  let proxy: TcpProxy;
  let h: DatabaseHandle;

  beforeAll(async () => {
    pgdb = await createPostgresDatabase();
    const u = new URL(pgdb.url);
    proxy = await startTcpProxy(Number(u.port || 5432), u.hostname);
    u.host = `127.0.0.1:${proxy.port}`;
    h = createDatabase(u.toString());
  });
  afterAll(async () => {
    await h?.destroy();
    await proxy?.close();
    await pgdb?.drop();
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
