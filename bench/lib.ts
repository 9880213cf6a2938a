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
  /** Any extra figures worth keeping (p99, peer tools, RSS...). */
  details?: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  run(): Promise<ScenarioResult>;
}
