/** What every benchmark scenario reports; `bench/run.ts` collects them into `bench/results/latest.json`. */
export interface ScenarioResult {
  /** The measured figure of the product (e.g. requests/s, ms, ratio). */
  value: number;
  unit: string;
  /** The same figure for the baseline measured in the same run, or null when the goal is absolute. */
  baseline: number | null;
  /** value/baseline or baseline/value, whichever the goal is stated in; null when there is no baseline. */
  ratio: number | null;
  /** Human-readable goal, e.g. ">= 0.5" or "<= 100 ms". */
  goal: string;
  pass: boolean;
  /** How many measured rounds `value` and `baseline` are the median of (1 when a single run). */
  rounds?: number;
  /** Any extra figures worth keeping (p99, peer tools, RSS...). */
  details?: Record<string, unknown>;
}

/** The machine a run was measured on: figures from two machines are never compared blindly. */
export interface MachineInfo {
  cores: number;
  cpu_model: string;
  total_memory_mb: number;
  node: string;
  /** Median wall time of one spawn (fork+exec+wait) of `/bin/true` from node, over `spawn_runs`. */
  spawn_true_ms: number;
  spawn_runs: number;
  /** 1-minute load average when measured: above the core count, the figures are the load's. */
  loadavg_1m: number;
}

/** Cores, CPU, memory, Node version and the cost of starting a process, measured now. */
export async function machineInfo(spawnRuns = 50): Promise<MachineInfo> {
  const os = await import('node:os');
  const { spawnSync } = await import('node:child_process');
  const times: number[] = [];
  for (let i = 0; i < spawnRuns; i++) {
    const t0 = performance.now();
    const r = spawnSync('/bin/true', { stdio: 'ignore' });
    times.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`/bin/true exited ${r.status}: ${r.error?.message ?? ''}`);
  }
  return {
    cores: os.availableParallelism(),
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    total_memory_mb: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    spawn_true_ms: round(median(times), 3),
    spawn_runs: spawnRuns,
    loadavg_1m: round(os.loadavg()[0], 2),
  };
}

export interface Scenario {
  name: string;
  run(): Promise<ScenarioResult>;
}

/** Percentile (0..100) of a list of numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** Median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * Runs a scenario module directly (`npx tsx bench/scenarios/x.ts`) and prints its JSON; under
 * `bench/run.ts` the result also goes to the file named by BENCH_RESULT_FILE.
 */
export async function runIfMain(metaUrl: string, scenario: Scenario): Promise<void> {
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  if (process.argv[1] && metaUrl === pathToFileURL(resolve(process.argv[1])).href) {
    try {
      const result = await scenario.run();
      if (process.env.BENCH_RESULT_FILE) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(result));
      }
      process.stdout.write(`${JSON.stringify({ [scenario.name]: result }, null, 2)}\n`);
      process.exit(0);
    } catch (err) {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      if (process.env.BENCH_RESULT_FILE) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify({ error: err instanceof Error ? err.message : String(err), pass: false }));
      }
      process.exit(1);
    }
  }
}
