/**
 * `GET /api/alert-history` (filtered, paginated) and `/stats` over 1,000,000 alert rows (500
 * servers, 5 types, 90 days), on SQLite (embedded default) and on PostgreSQL (a temporary
 * database on 127.0.0.1:5432, or BENCH_DATABASE_URL; unreachable fails the scenario). The peer is
 * the very queries the service runs, through the same repository and Kysely on the same database,
 * behind a bare Fastify route in a process of its own; the service is the app in a child process.
 * Both answer over loopback HTTP; the same queries run in this process are timed beside them for
 * reference. Each case is timed one client at a time and with 8 concurrent clients, in
 * alternating rounds; goal: service p95 / peer p95 <= 2 for every case and combination (value =
 * the worst).
 */
import type { Kysely } from 'kysely';
import { parseDateBound } from '../../src/core/time.js';
import { createDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/types.js';
import { addDays } from '../../src/modules/alerts/alert-days.js';
import { historyFilter } from '../../src/modules/alerts/alert-history.service.js';
import type { HistoryQuery } from '../../src/modules/alerts/alert-history.schemas.js';
import { AlertLogRepository } from '../../src/modules/alerts/alert-log.repository.js';
import { shanghaiDay } from '../../src/core/time.js';
import { round, runIfMain, type Scenario } from '../lib.js';
import { startChildApp } from '../support/child-app.js';
import { analyze, compareByClients, onBothDatabases, SAMPLING, seedAlerts, startQueryServer, type Case } from '../support/db-scale.js';

const ROWS = Number(process.env.BENCH_ALERT_ROWS ?? 1_000_000);
const SERVERS = 500;
const DAYS = 90;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = [1, 8];
const GOAL = 2;
const NOW = Date.now();

async function seed(databaseUrl: string): Promise<number> {
  const handle = createDatabase(databaseUrl);
  const t0 = performance.now();
  const at = new Date(NOW - DAYS * 86_400_000).toISOString();
  const servers = Array.from({ length: SERVERS }, (_, i) => ({
    name: `srv-${i + 1}`,
    host: `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    port: 22,
    username: 'root',
    auth_type: 'key',
    tags: '[]',
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < SERVERS; i += 250) await handle.db.insertInto('servers').values(servers.slice(i, i + 250)).execute();
  await seedAlerts(handle, ROWS, SERVERS, DAYS, NOW);
  await analyze(handle);
  await handle.destroy();
  return (performance.now() - t0) / 1000;
}

function day(offsetDays: number): string {
  return new Date(NOW + 8 * 3600_000 - offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const LISTS: Record<string, HistoryQuery> = {
  'newest page': {},
  'type=cpu': { type: 'cpu' },
  server: { server_id: 123 },
  'server+type': { server_id: 123, type: 'mem', per_page: 20, page: 2 },
  'active, 7 days': { status: 'active', date_from: day(7), date_to: day(0) },
  'recovered disk, page 20': { is_recovery: 'true', type: 'disk', page: 20, per_page: 50 },
  'partial-day datetimes': { date_from: `${day(30)}T13:30:00`, date_to: `${day(2)}T08:15:00`, type: 'offline' },
  'server, 30 days, recovered': { server_id: 77, date_from: day(30), status: 'recovered' },
  'deep offset': { limit: 50, offset: 20000 },
};

/** The service's list, query for query: count and page together, then names of unnamed rows. */
async function peerList(repo: AlertLogRepository, q: HistoryQuery): Promise<unknown> {
  const limit = q.per_page ?? q.limit ?? 50;
  const offset = q.page !== undefined ? (q.page - 1) * limit : (q.offset ?? 0);
  const f = historyFilter(q);
  const [total, rows] = await Promise.all([repo.count(f), repo.list(f, limit, offset)]);
  const names = await repo.serverNames([...new Set(rows.filter((r) => !r.server_name).map((r) => r.server_id))]);
  return { total, rows, names };
}

/** The service's stats queries: day counters, top servers, then their names. */
async function peerStats(repo: AlertLogRepository, days: number): Promise<unknown> {
  const today = shanghaiDay(NOW);
  const first = addDays(today, -(days - 1));
  const [counts, top] = await Promise.all([repo.typeCounts(first, today), repo.topServers(first, today, 5)]);
  const ids = top.map((t) => t.server_id);
  const current = await repo.serverNames(ids);
  const logged = await repo.loggedNames(ids.filter((id) => !current.has(id)));
  return { counts, top, current, logged };
}

/** The cases for `serve-queries.ts`: the same peers on its own connection to the database. */
export function queryCases(db: Kysely<Database>): Record<string, Case> {
  return cases(new AlertLogRepository(db));
}

function cases(repo: AlertLogRepository): Record<string, Case> {
  const out: Record<string, Case> = {};
  for (const [name, q] of Object.entries(LISTS)) {
    const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
    out[name] = { path: `/api/alert-history${qs ? `?${qs}` : ''}`, peer: () => peerList(repo, q) };
  }
  out['stats 7 days'] = { path: '/api/alert-history/stats', peer: () => peerStats(repo, 7) };
  out['stats 30 days'] = { path: '/api/alert-history/stats?days=30', peer: () => peerStats(repo, 30) };
  return out;
}

async function onBackend(env: Record<string, string>) {
  const app = await startChildApp('serve-app.ts', env);
  try {
    const seedSeconds = await seed(app.databaseUrl!);
    process.stderr.write(`seeded in ${round(seedSeconds, 1)} s\n`);
    const handle = createDatabase(app.databaseUrl!);
    try {
      // A bad date in a case must fail here, not be timed as an error.
      for (const q of Object.values(LISTS)) for (const d of [q.date_from, q.date_to]) if (d) parseDateBound(d, 'from', 'date');
      const bare = await startQueryServer(import.meta.url, app.databaseUrl!);
      try {
        const measured = await compareByClients(app, queryCases(handle.db), { clients: CLIENTS, rounds: ROUNDS, bare });
        return { seed_s: round(seedSeconds, 1), ...measured };
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
  name: 'alert-history-1m',
  async run() {
    const { sqlite, postgres } = await onBothDatabases(onBackend);
    const value = Math.max(sqlite.worst_ratio, postgres.worst_ratio);
    return {
      value,
      unit: 'x peer p95 (worst case)',
      baseline: 1,
      ratio: value,
      goal: `service p95 / the same Kysely queries behind bare Fastify p95 <= ${GOAL}, each case, SQLite and PostgreSQL, 1 and 8 clients`,
      pass: value <= GOAL,
      rounds: ROUNDS,
      details: { rows: ROWS, servers: SERVERS, days: DAYS, runs_per_round: SAMPLING.runs, budget_ms_per_round: SAMPLING.budgetMs, sqlite, postgres },
    };
  },
};

await runIfMain(import.meta.url, scenario);
