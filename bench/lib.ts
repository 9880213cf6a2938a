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
