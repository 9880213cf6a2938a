/**
 * restart: how long a restart takes to serve, as a service manager restarts the service: `npm
 * start` spawned on an up-to-date build and an existing DATA_DIR (migrated, first administrator
 * created by an untimed first start), timed from the spawn to the first 200 from /health.
 * Median of 3 restarts; goal <= 3 s. The whole chain is counted: npm, the prestart staleness
 * check (scripts/build-if-stale.mjs), then `node dist/server/server.js`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/fixtures/sshd.js';
import { buildIfStale } from '../../scripts/build-if-stale.mjs';
import { median, round, runIfMain, type Scenario, type ScenarioResult } from '../lib.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_MS = 3000;

/** Spawns `npm start` and answers the milliseconds until /health answered 200; then stops it. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  // Its own process group: npm runs a shell that runs node; the whole group is stopped at the end.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'restart-bench-pw-1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      if (ok) return performance.now() - t0;
      if (performance.now() - t0 > 60_000) throw new Error('npm start did not answer /health within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

async function run(): Promise<ScenarioResult> {
  // Up to date before timing: the scenario measures a restart, not a build.
  buildIfStale(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-restart-'));
  try {
    const firstMs = await timeStart(dataDir);
    const restarts: number[] = [];
    for (let i = 0; i < ROUNDS; i++) restarts.push(await timeStart(dataDir));
    const ms = median(restarts);
    return {
      value: Math.round(ms),
      unit: 'ms',
      baseline: null,
      ratio: null,
      goal: `<= ${GOAL_MS} ms from spawning npm start to /health 200`,
      pass: ms <= GOAL_MS,
      rounds: ROUNDS,
      details: { restarts_ms: restarts.map((t) => round(t, 0)), first_start_ms: round(firstMs, 0) },
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const scenario: Scenario = { name: 'restart', run };

await runIfMain(import.meta.url, scenario);
