/**
 * A throwaway PostgreSQL database reached through a TCP proxy, so a test can take the database
 * away (every connection cut, new ones refused) and bring it back without touching the shared
 * server. Fault tests that need PostgreSQL run only when TEST_DATABASE_URL is set (as .ci/run
 * sets it) and say why they are skipped otherwise.
 */
import { createPostgresDatabase, type TempDatabase } from './targets.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export const HAS_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!HAS_POSTGRES) console.warn('database outage tests skipped: they need TEST_DATABASE_URL (PostgreSQL), as .ci/run sets');

export interface PostgresBehindProxy {
  /** The database's URL through the proxy: give it to the service under test. */
  url: string;
  proxy: TcpProxy;
  close(): Promise<void>;
}

export async function postgresBehindProxy(): Promise<PostgresBehindProxy> {
  const db: TempDatabase = await createPostgresDatabase();
  const u = new URL(db.url);
  const proxy = await startTcpProxy(Number(u.port || 5432), u.hostname);
  u.host = `127.0.0.1:${proxy.port}`;
  return {
    url: u.toString(),
    proxy,
    async close() {
      await proxy.close();
      await db.drop();
    },
  };
}
