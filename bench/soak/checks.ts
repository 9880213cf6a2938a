/**
 * The soak's verdicts. Growth: after the warm-up, the median of the last quarter of the samples
 * against the median of the first quarter (at least 3 samples each): one sample taken while a
 * push's rsync pipes are open, or just before a major GC, moves neither median. RSS is judged per
 * process (each has its own heap); descriptors for the service as a whole (all its processes
 * summed), because which cluster worker holds a client connection or a pooled SSH connection
 * (closed after 60 s idle) is the load balancer's choice: one worker's count swings by several
 * descriptors while the service's total stays put.
 */
import { median, round } from '../lib.js';
import type { SoakClient } from './client.js';
import type { StartedBatch } from './load.js';
import { sumOf } from './probe.js';

export const MAX_GROWTH = 0.1;

export interface Sample {
  /** Seconds since the load started. */
  t: number;
  pid: number;
  rss: number;
  fds: number;
  /** From this process's own `GET /metrics`, when it serves HTTP and was reached. */
  metrics?: { rss: number; fds: number; heapUsed: number };
}

export interface Growth {
  from: number;
  to: number;
  growth: number;
}

function growthOf(values: number[]): Growth | null {
  if (values.length < 2) return null;
  const w = Math.max(1, Math.min(Math.floor(values.length / 2), Math.max(3, Math.floor(values.length / 4))));
  const from = median(values.slice(0, w));
  const to = median(values.slice(-w));
  return { from, to, growth: round(to / from - 1, 4) };
}

export interface ProcessGrowth {
  pid: number;
  samples: number;
  rss: Growth | null;
  fds: Growth | null;
  metrics_rss: Growth | null;
  metrics_fds: Growth | null;
  metrics_heap_used: Growth | null;
}

export function growthByProcess(samples: Sample[], warmupS: number): ProcessGrowth[] {
  const after = samples.filter((s) => s.t >= warmupS);
  const pids = [...new Set(after.map((s) => s.pid))];
  return pids.map((pid) => {
    const mine = after.filter((s) => s.pid === pid);
    const withMetrics = mine.filter((s) => s.metrics);
    return {
      pid,
      samples: mine.length,
      rss: growthOf(mine.map((s) => s.rss)),
      fds: growthOf(mine.map((s) => s.fds)),
      metrics_rss: growthOf(withMetrics.map((s) => s.metrics!.rss)),
      metrics_fds: growthOf(withMetrics.map((s) => s.metrics!.fds)),
      metrics_heap_used: growthOf(withMetrics.map((s) => s.metrics!.heapUsed)),
    };
  });
}

export interface ServiceFds {
  /** All the service's processes, from /proc. */
  fds: Growth | null;
  /** The HTTP processes' own `fleet_process_open_fds`, at the samples where every one was reached. */
  metrics_fds: Growth | null;
}

export function serviceFds(samples: Sample[], warmupS: number): ServiceFds {
  const byT = new Map<number, Sample[]>();
  for (const s of samples.filter((x) => x.t >= warmupS)) byT.set(s.t, [...(byT.get(s.t) ?? []), s]);
  const rounds = [...byT.values()];
  const served = Math.max(0, ...rounds.map((r) => r.filter((s) => s.metrics).length));
  return {
    fds: growthOf(rounds.map((r) => r.reduce((n, s) => n + s.fds, 0))),
    metrics_fds: growthOf(
      rounds.filter((r) => r.filter((s) => s.metrics).length === served).map((r) => r.reduce((n, s) => n + (s.metrics?.fds ?? 0), 0)),
    ),
  };
}

/** The asserted growth figures over the limit: RSS per process, descriptors of the whole service (each from /proc and /metrics). */
export function growthFailures(g: ProcessGrowth[], fds: ServiceFds): string[] {
  const out: string[] = [];
  const over = (what: string, v: Growth | null) => {
    if (v && v.growth > MAX_GROWTH) out.push(`${what} grew ${round(v.growth * 100, 1)} % (${v.from} → ${v.to})`);
  };
  for (const p of g) {
    over(`pid ${p.pid} rss`, p.rss);
    over(`pid ${p.pid} metrics_rss`, p.metrics_rss);
    if (!p.rss) out.push(`pid ${p.pid}: too few samples after the warm-up`);
  }
  over('service fds', fds.fds);
  over('service metrics_fds', fds.metrics_fds);
  return out;
}

export interface PushAccount {
  started: number;
  final: number;
  by_status: Record<string, number>;
  servers: { success: number; failed: number; skipped: number };
  api_total_batches: number | null;
  metrics: { batches: number; success: number; failed: number; skipped: number } | null;
  problems: string[];
}

/**
 * Every batch the soak started must have reached a final status; each batch's counts must
 * match its per-server results and its total; the history must hold exactly the batches started;
 * and the served processes' push counters must add up to the same figures.
 */
export async function accountPushes(
  client: SoakClient,
  batches: StartedBatch[],
  serversPerBatch: number,
  metricsByPid: Map<number, Map<string, number>> | null,
): Promise<PushAccount> {
  const acc: PushAccount = {
    started: batches.length, final: 0, by_status: {}, servers: { success: 0, failed: 0, skipped: 0 }, api_total_batches: null, metrics: null, problems: [],
  };
  for (const b of batches) {
    const res = await client.request('push-account', 'GET', `/api/sync/batches/${b.batchId}`);
    if (!res) {
      acc.problems.push(`batch ${b.batchId}: not readable`);
      continue;
    }
    const v = res.body as { status: string; total: number; succeeded: number; failed: number; skipped: number; results: Array<{ status: string }> };
    acc.by_status[v.status] = (acc.by_status[v.status] ?? 0) + 1;
    if (v.status === 'running') acc.problems.push(`batch ${b.batchId}: still running`);
    else acc.final++;
    const tally = { success: 0, failed: 0, skipped: 0 } as Record<string, number>;
    for (const r of v.results) tally[r.status] = (tally[r.status] ?? 0) + 1;
    if (v.total !== serversPerBatch || v.results.length !== v.total) acc.problems.push(`batch ${b.batchId}: total ${v.total}, ${v.results.length} results, ${serversPerBatch} servers asked`);
    if (tally.success !== v.succeeded || tally.failed !== v.failed || tally.skipped !== v.skipped || v.succeeded + v.failed + v.skipped !== v.total) {
      acc.problems.push(`batch ${b.batchId}: counts ${v.succeeded}/${v.failed}/${v.skipped} of ${v.total}, results ${JSON.stringify(tally)}`);
    }
    acc.servers.success += v.succeeded;
    acc.servers.failed += v.failed;
    acc.servers.skipped += v.skipped;
  }
  const page = await client.request('push-account', 'GET', '/api/sync/batch-summaries?limit=1');
  if (page) {
    acc.api_total_batches = (page.body as { total: number }).total;
    if (acc.api_total_batches !== batches.length) acc.problems.push(`the history holds ${acc.api_total_batches} batches, the soak started ${batches.length}`);
  }
  if (metricsByPid) {
    const m = { batches: 0, success: 0, failed: 0, skipped: 0 };
    for (const text of metricsByPid.values()) {
      m.batches += sumOf(text, 'fleet_push_batches_total');
      for (const k of ['success', 'failed', 'skipped'] as const) m[k] += sumOf(text, 'fleet_push_servers_total', `outcome="${k}"`);
    }
    acc.metrics = m;
    if (m.batches !== batches.length) acc.problems.push(`/metrics counted ${m.batches} batches closed, the soak started ${batches.length}`);
    for (const k of ['success', 'failed', 'skipped'] as const) {
      if (m[k] !== acc.servers[k]) acc.problems.push(`/metrics counted ${m[k]} ${k} servers, the API ${acc.servers[k]}`);
    }
  } else acc.problems.push('could not scrape /metrics of every HTTP process');
  if (acc.servers.failed > 0) acc.problems.push(`${acc.servers.failed} server pushes failed against healthy targets`);
  return acc;
}
