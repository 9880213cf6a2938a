/**
 * Side-by-side rounds of the product against its bare peer, each server alone in a child process
 * and loaded by autocannon in this one: each round measures both, in alternating order (so a
 * drift of the machine's load favours neither), and the figures are the medians over rounds.
 * Each side also reports the CPU time its process used per request, which holds even when the
 * load generator, not the server, is what runs out of CPU.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { median, round } from '../lib.js';
import type { ChildApp } from './child-app.js';
import { pinnedApart } from './cpu-pin.js';
import { costPerRequest, readProfile } from './hook-profile.js';

export interface Side {
  rps: number;
  p99_ms: number;
  cpu_us_per_req: number;
}

export interface Loaded extends Side {
  result: autocannon.Result;
  /** The measured window on the monotonic clock, in µs (for cutting a CPU profile). */
  fromUs: number;
  toUs: number;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * One measured load against `child`, the child and this process on CPUs of their own (see
 * cpu-pin.ts); fails on any non-2xx answer or socket error.
 */
export async function loadChild(child: ChildApp, load: () => Promise<autocannon.Result>): Promise<Loaded> {
  const { result, cpu0, cpu1, fromUs, toUs } = await pinnedApart(child.child.pid!, async () => {
    const cpu0 = child.cpuMs();
    const fromUs = nowUs();
    const result = await load();
    return { result, cpu0, fromUs, toUs: nowUs(), cpu1: child.cpuMs() };
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return {
    result,
    fromUs,
    toUs,
    rps: round(result.requests.average, 0),
    p99_ms: result.latency.p99,
    cpu_us_per_req: round(((cpu1 - cpu0) * 1000) / result.requests.total, 1),
  };
}

export interface RoundsSummary {
  value: number;
  baseline: number;
  ratio: number;
  rounds: number;
  details: Record<string, unknown>;
}

/**
 * Medians over rounds; the ratio is the median of the rounds' own ratios (each round measures both
 * sides back to back, so a drift of the machine between rounds cancels out of it). The per-round
 * figures and the CPU-time ratio go to `details`.
 */
export function summarizeRounds(rounds: Array<{ app: Side; bare: Side }>): RoundsSummary {
  const value = median(rounds.map((r) => r.app.rps));
  const baseline = median(rounds.map((r) => r.bare.rps));
  const ratios = rounds.map((r) => r.app.rps / r.bare.rps);
  const appCpu = median(rounds.map((r) => r.app.cpu_us_per_req));
  const bareCpu = median(rounds.map((r) => r.bare.cpu_us_per_req));
  return {
    value: round(value, 0),
    baseline: round(baseline, 0),
    ratio: round(median(ratios), 3),
    rounds: rounds.length,
    details: {
      round_ratios: ratios.map((r) => round(r, 3)),
      ratio_of_medians: round(value / baseline, 3),
      ratio_spread: round(Math.max(...ratios) - Math.min(...ratios), 3),
      p99_ms: median(rounds.map((r) => r.app.p99_ms)),
      bare_p99_ms: median(rounds.map((r) => r.bare.p99_ms)),
      cpu_us_per_req: appCpu,
      bare_cpu_us_per_req: bareCpu,
      // bare CPU per request / product CPU per request: the ratio a server-bound machine would show.
      cpu_ratio: round(bareCpu / appCpu, 3),
      rounds: rounds.map((r) => ({ app: r.app, bare: r.bare })),
    },
  };
}

/**
 * One more load of the product under `--cpu-prof`, charged per hook (see hook-profile.ts): the
 * per-hook table of `details`. The profiler slows the server a little; the table is for where the
 * time goes, the ratio comes from the unprofiled rounds.
 */
export async function profiledRun(
  start: (nodeArgs: string[]) => Promise<ChildApp>,
  run: (child: ChildApp) => Promise<Loaded>,
): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-prof-'));
  try {
    const child = await start(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    let loaded: Loaded;
    try {
      loaded = await run(child);
    } finally {
      await child.stop();
    }
    return costPerRequest(readProfile(dir), loaded.fromUs, loaded.toUs, loaded.result.requests.total);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
