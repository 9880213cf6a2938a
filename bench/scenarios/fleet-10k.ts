/**
 * The console at fleet scale: 10,000 servers (tags, recent heartbeats, an hour of agent readings
 * each: 1,200,000 rows) and 1,000,000 alert rows, on SQLite and on PostgreSQL (a temporary
 * database on 127.0.0.1:5432, or BENCH_DATABASE_URL; unreachable fails the scenario). Timed: the
 * server list (first page, by tag, searched by name: `GET /api/servers/search`), the dashboard
 * (`GET /api/dashboard`) and the monitoring list (`GET /api/agent/metrics`, as the Monitoring page
 * asks it: the first 50 servers with 30 points each, failures first and by CPU). The peer of
 * each is the repository calls its service makes, through the same Kysely queries on the same
 * database, behind a bare Fastify route in a process of its own (both sides answer over loopback
 * HTTP; the queries run in this process are timed beside them for reference). One client, then
 * 8, alternating rounds, medians; goal: service p95 / peer p95 <= 2 for each (value = the worst).
 */
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { HeartbeatPointsRepository } from '../../src/modules/agent/heartbeat-points.repository.js';
import { AlertLogRepository } from '../../src/modules/alerts/alert-log.repository.js';
import { PushRepository } from '../../src/modules/push/push.repository.js';
import { RetriesRepository } from '../../src/modules/retries/retries.repository.js';
import { FleetQueryRepository } from '../../src/modules/servers/fleet-query.repository.js';
import { round, runIfMain, type Scenario } from '../lib.js';
import { startChildApp } from '../support/child-app.js';
import { analyze, compareByClients, onBothDatabases, SAMPLING, seedAlerts, startQueryServer, type Case } from '../support/db-scale.js';

const SERVERS = Number(process.env.BENCH_FLEET_SERVERS ?? 10_000);
const ALERTS = Number(process.env.BENCH_ALERT_ROWS ?? 1_000_000);
/** An hour of 30 s heartbeats: what the monitoring page's table holds at most per server. */
const POINTS = 120;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = [1, 8];
const GOAL = 2;
const NOW = Date.now();
const ENVS = ['prod', 'staging', 'dev', 'qa'];

async function seed(url: string): Promise<{ seconds: number }> {
  const handle = createDatabase(url);
  const t0 = performance.now();
  const at = new Date(NOW - 30 * 86_400_000).toISOString();
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < SERVERS; i += 500) {
      const rows = [];
      for (let j = i; j < Math.min(SERVERS, i + 500); j++) {
        const online = j % 10 !== 0;
        rows.push({
          name: `web-${String(j + 1).padStart(5, '0')}`,
          host: `10.${Math.floor(j / 65_536)}.${Math.floor(j / 256) % 256}.${j % 256}`,
          port: 22,
          username: 'root',
          auth_type: 'key',
          tags: JSON.stringify([`env-${ENVS[j % ENVS.length]}`, `rack-${j % 50}`]),
          status: online ? ('online' as const) : ('offline' as const),
          last_heartbeat_at: new Date(NOW - (online ? 10_000 : 3_600_000)).toISOString(),
          created_at: at,
          updated_at: at,
        });
      }
      await trx.insertInto('servers').values(rows).execute();
    }
  });
  await seedReadings(handle);
  await seedAlerts(handle, ALERTS, SERVERS, 90, NOW);
  await analyze(handle);
  await handle.destroy();
  return { seconds: (performance.now() - t0) / 1000 };
}

/** POINTS readings per server, 30 s apart up to now, generated inside the database in one statement. */
async function seedReadings(handle: DatabaseHandle): Promise<void> {
  const first = Math.floor(NOW / 1000) - (POINTS - 1) * 30;
  const last = POINTS - 1;
  if (handle.dialect === 'postgres') {
    await sql`INSERT INTO agent_heartbeats (server_id, at, cpu, mem, disk, load, drift_s, version)
      SELECT s.id, to_char(to_timestamp(${first} + i * 30) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        (s.id * 7 + i) % 100, (s.id * 3 + i) % 100, 40 + s.id % 50, (i % 8) / 2.0, 0, '1.4.0'
      FROM servers s CROSS JOIN generate_series(0, ${last}) AS i`.execute(handle.db);
  } else {
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${last})
      INSERT INTO agent_heartbeats (server_id, at, cpu, mem, disk, load, drift_s, version)
      SELECT s.id, strftime('%Y-%m-%dT%H:%M:%fZ', ${first} + i * 30, 'unixepoch'),
        (s.id * 7 + i) % 100, (s.id * 3 + i) % 100, 40 + s.id % 50, (i % 8) / 2.0, 0, '1.4.0'
      FROM servers s CROSS JOIN n`.execute(handle.db);
  }
  // Each server's newest reading, as the recorder keeps it beside the readings.
  await sql`INSERT INTO agent_latest_reading (server_id, at, cpu, mem, disk, load, drift_s, version)
    SELECT server_id, at, cpu, mem, disk, load, drift_s, version FROM agent_heartbeats
    WHERE id IN (SELECT max(id) FROM agent_heartbeats GROUP BY server_id)`.execute(handle.db);
}

/** The cases, also for `serve-queries.ts` (the same peers on its own connection to the database). */
export function queryCases(db: DatabaseHandle['db']): Record<string, Case> {
  const fleet = new FleetQueryRepository(db);
  const alerts = new AlertLogRepository(db);
  const push = new PushRepository(db);
  const retries = new RetriesRepository(db);
  const points = new HeartbeatPointsRepository(db);
  return {
    'servers, first page': { path: '/api/servers/search', peer: () => fleet.page({}, 'name', 'asc', 50, 0) },
    'servers, tag': { path: '/api/servers/search?tag=rack-7', peer: () => fleet.page({ tag: 'rack-7' }, 'name', 'asc', 50, 0) },
    'servers, name search': { path: '/api/servers/search?q=web-012', peer: () => fleet.page({ q: 'web-012' }, 'name', 'asc', 50, 0) },
    // DashboardService.view: status and SSH counts, the 10 newest active alerts (their count is
    // the cache's), the 5 newest pushes, the retry jobs by status and 5 failed ones.
    dashboard: {
      path: '/api/dashboard',
      peer: () =>
        Promise.all([
          Promise.all([fleet.statusCounts(), fleet.sshCounts()]),
          alerts.openRows(10),
          push.pageBatches(undefined, 5, 0),
          retries.countByStatus().then(() => retries.listByStatus('failed', 5)),
        ]),
    },
    // The Monitoring page's first page as it opens (failures first) and sorted by CPU: the
    // service sorts every server (by CPU after reading every server's newest reading, kept in a
    // table of its own) and reads 30 readings for the 50 it shows. The peer reads the same rows
    // but sorts nothing.
    monitoring: {
      path: '/api/agent/metrics?points=30&sort=status&limit=50',
      peer: async () => points.recent(30, (await points.servers()).slice(0, 50).map((s) => Number(s.id))),
    },
    'monitoring, by CPU': {
      path: '/api/agent/metrics?points=30&sort=cpu&order=desc&limit=50',
      peer: async () => {
        const [all] = await Promise.all([points.servers(), points.newest()]);
        return points.recent(30, all.slice(0, 50).map((s) => Number(s.id)));
      },
    },
  };
}

async function onBackend(env: Record<string, string>) {
  const app = await startChildApp('serve-app.ts', env);
  try {
    const seeded = await seed(app.databaseUrl!);
    process.stderr.write(`seeded in ${round(seeded.seconds, 1)} s\n`);
    const handle = createDatabase(app.databaseUrl!);
    try {
      const bare = await startQueryServer(import.meta.url, app.databaseUrl!);
      try {
        const measured = await compareByClients(app, queryCases(handle.db), { clients: CLIENTS, rounds: ROUNDS, bare });
        return { seed_s: round(seeded.seconds, 1), ...measured };
      } finally {
        await bare.stop();
      }
    } finally {
      await handle.destroy();
    }
  } finally {
    await app.stop();
  }
}

export const scenario: Scenario = {
  name: 'fleet-10k',
  async run() {
    const t0 = performance.now();
    const { sqlite, postgres } = await onBothDatabases(onBackend);
    const value = Math.max(sqlite.worst_ratio, postgres.worst_ratio);
    return {
      value,
      unit: 'x peer p95 (worst case)',
      baseline: 1,
      ratio: value,
      goal: `service p95 / the same Kysely queries behind bare Fastify p95 <= ${GOAL}, each endpoint, SQLite and PostgreSQL, 1 and 8 clients`,
      pass: value <= GOAL,
      rounds: ROUNDS,
      details: { servers: SERVERS, readings: SERVERS * POINTS, alerts: ALERTS, runs_per_round: SAMPLING.runs, budget_ms_per_round: SAMPLING.budgetMs, total_s: round((performance.now() - t0) / 1000, 0), sqlite, postgres },
    };
  },
};

await runIfMain(import.meta.url, scenario);
