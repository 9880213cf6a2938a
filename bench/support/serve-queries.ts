/**
 * The peer of the database-scale scenarios: each case's queries (the same repository calls
 * through Kysely) behind a bare Fastify GET route, `/q/<i>` for the i-th case, in its own process
 * like the service, answered with JSON.stringify and no authentication, schema or hook. The
 * service's p95 over this one's is what the product adds to the very same queries answered over
 * the same loopback HTTP hop.
 * BENCH_APP_ENV holds `{ module, DATABASE_URL }`: the scenario module exporting
 * `queryCases(db)`, and its database.
 */
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/types.js';
import { serveUntilStopped } from './serve-child.js';

interface Env {
  module: string;
  DATABASE_URL: string;
}
const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Env;
const { queryCases } = (await import(env.module)) as { queryCases(db: Kysely<Database>): Record<string, { peer: () => Promise<unknown> }> };
const handle = createDatabase(env.DATABASE_URL);
const cases = Object.values(queryCases(handle.db));

// The repository answers carry Maps (names by id); JSON has no Map, so they go out as objects.
const toJson = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v));

const app = Fastify({ logger: false });
cases.forEach((c, i) => {
  app.get(`/q/${i}`, async (_req, reply) => reply.type('application/json; charset=utf-8').send(toJson(await c.peer())));
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
serveUntilStopped({ url: `http://127.0.0.1:${port}`, token: '', pid: process.pid }, async () => {
  await app.close();
  await handle.destroy();
});
