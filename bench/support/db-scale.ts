/**
 * Shared parts of the database-scale scenarios (alert-history-1m, fleet-10k): a temporary
 * PostgreSQL database (unreachable = a loud failure, never a skip), and side-by-side p95s, one
 * client at a time and with several concurrent clients, over a few alternating rounds (medians
 * kept), of three sides: the service over HTTP; its peer, the very same repository queries through
 * Kysely behind a bare Fastify route in a process of its own (the goal's baseline: the same work,
 * answered over the same loopback HTTP hop); and, for reference, those queries run in the
 * measuring process with no HTTP at all. The last is no baseline for an HTTP service: on a machine
 * where one loopback request costs more than a sub-millisecond query, no server could come within
 * 2x of it, and the HTTP floor measured beside it shows where that is so.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.js';
import { Agent, request } from 'undici';
import { median, percentile, round } from '../lib.js';
import { startChildApp, type ChildApp } from './child-app.js';

const TYPES = ['cpu', 'mem', 'disk', 'offline', 'time_drift'];
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** BENCH_DATABASE_URL when set, else a fresh database on 127.0.0.1:5432 that `drop` removes. */
export async function temporaryPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => {} };
  const name = `fleet_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (err) {
    throw new Error(`PostgreSQL at 127.0.0.1:5432 is needed (or BENCH_DATABASE_URL): ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await admin.end().catch(() => {});
  }
  return {
    url: ADMIN_URL.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One measured operation: an HTTP path for the service, and a function running the same queries. */
export interface Case {
  path: string;
  /** The service's queries for this case: what the peer's bare route runs, and the in-process reference. */
  peer: () => Promise<unknown>;
  /** For a case of seconds per call: this many calls in one round (and one warm-up call). */
  runs?: number;
}

export interface CaseResult {
  service_p95_ms: number;
  /** The same queries behind a bare Fastify route in another process: the goal's peer. */
  peer_p95_ms: number;
  /** service p95 / peer p95: the goal's figure. */
  ratio: number;
  service_p50_ms: number;
  peer_p50_ms: number;
  /** The same queries run in the measuring process, no HTTP (a reference, not the goal). */
  in_process_p95_ms: number;
  ratio_to_in_process: number;
}

/**
 * How many calls each side of a case gets per round, in both scenarios: up to `runs`, and past
 * `budgetMs` no new one once MIN_RUNS are done, so a case of hundreds of milliseconds per call is
 * timed over fewer calls than a case of one (whose p95, over a few dozen calls, would be little
 * more than its slowest outlier). Every side of a case gets the same runs and budget.
 */
export const SAMPLING = { runs: Number(process.env.BENCH_RUNS ?? 200), budgetMs: Number(process.env.BENCH_BUDGET_MS ?? 1500) };
const MIN_RUNS = 20;

/** The time of each of `runs` calls of `op` made by `clients` concurrent loops, within `budgetMs` as SAMPLING says. */
async function timeLoop(op: () => Promise<unknown>, clients: number, runs: number, budgetMs = Infinity): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + budgetMs;
  let left = runs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0 && (runs - left <= MIN_RUNS || performance.now() < until)) {
        const t0 = performance.now();
        await op();
        times.push(performance.now() - t0);
      }
    }),
  );
  return times;
}

/** A GET of the service as the console makes it: authenticated, the JSON answer read and parsed. */
function httpGet(app: ChildApp, path: string, dispatcher: Agent): () => Promise<void> {
  const headers = { authorization: `Bearer ${app.token}` };
  return async () => {
    const res = await request(app.url + path, { headers, dispatcher });
    const body = await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode} ${Buffer.from(body).toString().slice(0, 300)}`);
    JSON.parse(Buffer.from(body).toString('utf8'));
  };
}

/**
 * The p95 of an authenticated request that reads one row (GET /api/auth/me): what any request
 * costs on this machine over loopback HTTP, to read a case's service − peer difference against.
 */
async function floorP95(app: ChildApp, clients: number, runs: number, rounds: number): Promise<number> {
  const dispatcher = new Agent({ connections: clients, pipelining: 1 });
  try {
    const get = httpGet(app, '/api/auth/me', dispatcher);
    await timeLoop(get, clients, Math.max(3, clients));
    const p95s: number[] = [];
    for (let r = 0; r < rounds; r++) p95s.push(percentile(await timeLoop(get, clients, runs), 95));
    return round(median(p95s), 3);
  } finally {
    await dispatcher.close();
  }
}

/**
 * A reference side: `serve-queries.ts` on `databaseUrl`, the cases `module` exports as
 * `queryCases(db)` behind bare Fastify routes, `/q/<i>` for the i-th case.
 */
export function startQueryServer(module: string, databaseUrl: string): Promise<ChildApp> {
  return startChildApp('serve-queries.ts', { module, DATABASE_URL: databaseUrl });
}

/**
 * For each case and each round: the service's p95 (HTTP, `clients` connections), the peer's (the
 * same queries behind a bare route in another process, `bare`, same connections) and the same
 * queries run here (`clients` concurrent callers); rounds rotate which side goes first, so a
 * drift of the machine's load (or a cache one side warms for the next) favours none. The
 * figures kept are the medians over the rounds; ratio = service p95 / peer p95.
 */
export async function compare(
  app: ChildApp,
  cases: Record<string, Case>,
  opts: { clients: number; runs: number; rounds: number; bare: ChildApp; budgetMs: number },
): Promise<Record<string, CaseResult>> {
  const dispatcher = new Agent({ connections: opts.clients, pipelining: 1 });
  const out: Record<string, CaseResult> = {};
  try {
    for (const [index, [name, c]] of Object.entries(cases).entries()) {
      const sides: Record<string, () => Promise<unknown>> = {
        service: httpGet(app, c.path, dispatcher),
        peer: httpGet(opts.bare, `/q/${index}`, dispatcher),
        in_process: c.peer,
      };
      const names = Object.keys(sides);
      const warm = c.runs ? 1 : Math.max(3, opts.clients);
      const rounds = c.runs ? 1 : opts.rounds;
      for (const side of names) await timeLoop(sides[side], opts.clients, warm);
      const p95 = Object.fromEntries(names.map((n) => [n, [] as number[]]));
      const p50 = Object.fromEntries(names.map((n) => [n, [] as number[]]));
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < names.length; i++) {
          const side = names[(i + r) % names.length];
          const t = await timeLoop(sides[side], opts.clients, c.runs ?? opts.runs, c.runs ? Infinity : opts.budgetMs);
          p95[side].push(percentile(t, 95));
          p50[side].push(percentile(t, 50));
        }
      }
      const sp95 = median(p95.service);
      const pp95 = median(p95.peer);
      const ip95 = median(p95.in_process);
      // Progress on stderr: a full run takes minutes.
      process.stderr.write(
        `${opts.clients} client(s) ${name}: service p95 ${round(sp95, 2)} ms, same queries behind bare Fastify p95 ${round(pp95, 2)} ms, in this process ${round(ip95, 2)} ms\n`,
      );
      out[name] = {
        service_p95_ms: round(sp95, 3),
        peer_p95_ms: round(pp95, 3),
        ratio: round(sp95 / pp95, 2),
        service_p50_ms: round(median(p50.service), 3),
        peer_p50_ms: round(median(p50.peer), 3),
        in_process_p95_ms: round(ip95, 3),
        ratio_to_in_process: round(sp95 / ip95, 2),
      };
    }
  } finally {
    await dispatcher.close();
  }
  return out;
}

/** The highest `pick` over a record's values (the worst case of a combination). */
function highest<T>(record: Record<string, T>, pick: (v: T) => number): number {
  return Math.max(...Object.values(record).map(pick));
}

export interface Combination {
  worst_ratio: number;
  /** The highest service p95 / p95 of the same queries run in the measuring process (a reference). */
  worst_ratio_to_in_process: number;
  /** p95 of GET /api/auth/me with as many clients: the HTTP + authentication floor of any request here. */
  http_floor_p95_ms: number;
  /**
   * The highest floor / in-process p95 over the cases: the ratio to the in-process queries a
   * service would show if a case cost it nothing beyond the floor (above 2: no HTTP service on
   * this machine could come within 2x of them there).
   */
  floor_worst_ratio: number;
  cases: Record<string, CaseResult & { floor_ratio: number }>;
}

/** `compare` once per client count ("1 client", "8 clients"), with the worst ratio of each. */
export async function compareByClients(
  app: ChildApp,
  cases: Record<string, Case>,
  opts: { clients: number[]; rounds: number; bare: ChildApp },
): Promise<{ worst_ratio: number; by_clients: Record<string, Combination> }> {
  const by: Record<string, Combination> = {};
  for (const clients of opts.clients) {
    const res = await compare(app, cases, { ...opts, ...SAMPLING, clients });
    const floor = await floorP95(app, clients, SAMPLING.runs, opts.rounds);
    const withFloor = Object.fromEntries(Object.entries(res).map(([name, r]) => [name, { ...r, floor_ratio: round(floor / r.in_process_p95_ms, 2) }]));
    by[`${clients} client${clients > 1 ? 's' : ''}`] = {
      worst_ratio: highest(res, (r) => r.ratio),
      worst_ratio_to_in_process: highest(res, (r) => r.ratio_to_in_process),
      http_floor_p95_ms: floor,
      floor_worst_ratio: highest(withFloor, (r) => r.floor_ratio),
      cases: withFloor,
    };
  }
  return { worst_ratio: highest(by, (c) => c.worst_ratio), by_clients: by };
}

/**
 * `rows` alert rows over `days` days up to `now`, spread over servers 1..`servers` and the five
 * types (about 4 in 9 recoveries), generated inside the database in one statement: the triggers
 * keep the daily counters as they do for the engine's inserts.
 */
export async function seedAlerts(handle: DatabaseHandle, rows: number, servers: number, days: number, now: number): Promise<void> {
  const startMs = now - days * 86_400_000;
  const span = days * 86_400_000;
  const type = sql.raw(`CASE (j * 7) % 5 ${TYPES.map((t, i) => `WHEN ${i} THEN '${t}'`).join(' ')} END`);
  const cols = sql`server_id, server_name, alert_type, value, is_recovery, created_at`;
  if (handle.dialect === 'postgres') {
    await sql`INSERT INTO alert_log (${cols})
      SELECT 1 + (j * 7919) % ${servers}, 'srv-' || (1 + (j * 7919) % ${servers}), t,
        CASE WHEN t = 'offline' THEN NULL ELSE 50 + j % 50 END, CASE WHEN (j / 2) % 9 < 4 THEN 1 ELSE 0 END,
        to_char(to_timestamp((${startMs}::float8 + floor(j::float8 / ${rows} * ${span})) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      FROM (SELECT j, ${type} AS t FROM generate_series(0::bigint, ${rows - 1}::bigint) AS j) g`.execute(handle.db);
  } else {
    await sql`WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM n WHERE j < ${rows - 1}),
      g(j, t) AS (SELECT j, ${type} FROM n)
      INSERT INTO alert_log (${cols})
      SELECT 1 + (j * 7919) % ${servers}, 'srv-' || (1 + (j * 7919) % ${servers}), t,
        CASE WHEN t = 'offline' THEN NULL ELSE 50 + j % 50 END, CASE WHEN (j / 2) % 9 < 4 THEN 1 ELSE 0 END,
        strftime('%Y-%m-%dT%H:%M:%fZ', (${startMs} + (j * ${span}) / ${rows}) / 1000.0, 'unixepoch')
      FROM g`.execute(handle.db);
  }
}

/** What autovacuum / a routine ANALYZE does after a bulk import (statistics, PostgreSQL's visibility map). */
export async function analyze(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(handle.db);
  else {
    await sql`ANALYZE`.execute(handle.db);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(handle.db);
  }
}

/** Runs a scenario's measurement on SQLite, then on a temporary PostgreSQL database (dropped after). */
export async function onBothDatabases<T>(run: (env: Record<string, string>) => Promise<T>): Promise<{ sqlite: T; postgres: T }> {
  const sqlite = await run({});
  const target = await temporaryPostgres();
  try {
    return { sqlite, postgres: await run({ DATABASE_URL: target.url }) };
  } finally {
    await target.drop();
  }
}
