/**
 * PostgreSQL goes away for ~3 s (every connection cut, new ones refused, through a proxy in front
 * of the real server) while agents keep posting heartbeats. The rule: no heartbeat is acknowledged
 * and then lost. A heartbeat is either answered 2xx and stored (its reading and time reach the
 * database once it is back), or answered 503 `database_unavailable` (so the agent sends it again),
 * never a 500. `/health` says `db: "error"` (still 200: the service itself answers) while the
 * database is away, and ingestion and ordinary requests answer again within 5 s of its return.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { HAS_POSTGRES, type PostgresBehindProxy, postgresBehindProxy } from '../helpers/postgres-proxy.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';
import { heartbeat, monitoredServer } from '../modules/agent/agent-helpers.js';
import { until } from '../modules/push/push-helpers.js';

interface Sent {
  server: number;
  seq: number;
  status: number;
  body: { detail?: string; code?: string };
}

describe.runIf(HAS_POSTGRES)('a PostgreSQL outage during heartbeat ingestion', () => {
  let pg: PostgresBehindProxy;
  let proxy: TcpProxy;
  let t: TestApp;
  let auth: { authorization: string };
  /** The agents' loop runs while this is true (afterAll stops it if the test failed midway). */
  let posting = false;

  beforeAll(async () => {
    pg = await postgresBehindProxy();
    proxy = pg.proxy;
    t = await makeTestApp({ env: { DATABASE_URL: pg.url } });
    auth = await t.auth();
  });
  afterAll(async () => {
    posting = false;
    await t?.close();
    await pg?.close();
  });

  it('acknowledges only what it stores, answers 503 database_unavailable otherwise, and recovers within 5 s', async () => {
    const agents = [];
    for (let i = 0; i < 6; i++) agents.push(await monitoredServer(t, `hb-outage-${i}`));
    for (const a of agents) expect((await heartbeat(t, a.token, { load: 0 })).statusCode).toBe(200);
    await t.app.services.agent.agent.flushHeartbeats();

    // Every agent posts in a loop through the outage; `load` carries a sequence number so each
    // acknowledged reading can be found in the database afterwards.
    const sent: Sent[] = [];
    let seq = 1;
    posting = true;
    const poster = async (a: { id: number; token: string }) => {
      while (posting) {
        const n = seq++;
        const res = await heartbeat(t, a.token, { load: n });
        sent.push({ server: a.id, seq: n, status: res.statusCode, body: res.json() });
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const posters = agents.map(poster);

    proxy.down();
    // A worker that has not seen a token yet (or whose cache entry expired) must read it from the
    // database: drop the cached tokens of half the agents.
    t.app.services.agent.agent.tokens.evictServers(agents.slice(0, 3).map((a) => a.id));
    let upAt = 0;
    try {
      await until(async () => (await t.app.inject({ url: '/health' })).json().db === 'error', 10_000);
      const health = await t.app.inject({ url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok', db: 'error' });
      // An ordinary request while the database is away: a clear 503, not a 500.
      const list = await t.app.inject({ url: '/api/servers', headers: auth });
      expect(list.statusCode).toBe(503);
      expect(list.json()).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
      expect(list.headers['retry-after']).toBeDefined();
      await new Promise((r) => setTimeout(r, 3_000));
    } finally {
      proxy.up();
      upAt = Date.now();
    }

    // The first 2xx after the database returns, for a request that needs it and for a heartbeat
    // whose token must be read from it.
    let listBackMs = -1;
    let beatBackMs = -1;
    const fresh = agents[0];
    t.app.services.agent.agent.tokens.evictServers([fresh.id]);
    await until(async () => {
      if (listBackMs < 0 && (await t.app.inject({ url: '/api/servers', headers: auth })).statusCode === 200) listBackMs = Date.now() - upAt;
      if (beatBackMs < 0 && (await heartbeat(t, fresh.token, { load: 0 })).statusCode === 200) beatBackMs = Date.now() - upAt;
      return listBackMs >= 0 && beatBackMs >= 0;
    }, 20_000);
    console.log(`database back: first 2xx of GET /api/servers after ${listBackMs} ms, of an uncached heartbeat after ${beatBackMs} ms`);
    expect(listBackMs).toBeLessThan(5_000);
    expect(beatBackMs).toBeLessThan(5_000);
    expect((await t.app.inject({ url: '/health' })).json()).toMatchObject({ db: 'ok' });

    posting = false;
    await Promise.all(posters);

    // Every answer was a 2xx or a clear 503; there were some of each (the outage was seen).
    const bad = sent.filter((s) => s.status !== 200 && !(s.status === 503 && s.body.code === 'database_unavailable' && s.body.detail));
    expect(bad).toEqual([]);
    expect(sent.some((s) => s.status === 503)).toBe(true);
    const acked = sent.filter((s) => s.status === 200);
    expect(acked.length).toBeGreaterThan(0);

    // Every acknowledged reading is in the database, and every server's heartbeat time is at
    // least as new as its last acknowledged heartbeat.
    await t.app.services.agent.agent.flushHeartbeats();
    await until(async () => {
      const stored = await storedLoads();
      return acked.every((s) => stored.has(`${s.server}:${s.seq}`));
    }, 20_000).catch(() => {});
    const stored = await storedLoads();
    expect(acked.filter((s) => !stored.has(`${s.server}:${s.seq}`))).toEqual([]);
    const servers = (await t.app.inject({ url: '/api/servers', headers: auth })).json() as Array<{ id: number; status: string; last_heartbeat_at: string }>;
    for (const a of agents) expect(servers.find((s) => s.id === a.id)?.status).toBe('online');
  }, 60_000);

  async function storedLoads(): Promise<Set<string>> {
    // The readings table belongs to the agent module and is not in the shared table types.
    const rows = await sql<{ server_id: number; load: number | null }>`select server_id, load from agent_heartbeats`
      .execute(t.app.services.db)
      .then((r) => r.rows, () => []);
    return new Set(rows.map((r) => `${r.server_id}:${r.load}`));
  }
});
