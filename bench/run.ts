/**
 * `npm run bench`: runs every scenario in bench/scenarios (or those named on the command line),
 * each against its own baseline in the same run, and writes bench/results/latest.json.
 *
 * Each scenario runs in a fresh node process: several start the service inside their own
 * process, and none should inherit another's heap, JIT state or leftover handles.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MachineInfo, machineInfo, type ScenarioResult } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
type Outcome = ScenarioResult | { error: string; pass: false };

/**
 * Runs one scenario file in its own process; its result (or its error) comes back through a temp
 * file. Its stderr is this terminal's: a failing scenario shows its stack there.
 */
function runScenario(file: string): Promise<Outcome> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-result-')), 'result.json');
  return new Promise((resolve) => {
    // No --expose-gc: a forced collection before a measured run slowed the uploads that follow
    // by up to half (upload-500mb 0.54 with it, 0.91 without, same machine and minute).
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'scenarios', file)], {
      cwd: path.join(here, '..'),
      env: { ...process.env, BENCH_RESULT_FILE: out },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(fs.readFileSync(out, 'utf8')) as Outcome);
      } catch {
        resolve({ error: `exited ${code} without a result`, pass: false });
      } finally {
        fs.rmSync(path.dirname(out), { recursive: true, force: true });
      }
    });
  });
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const names = fs
    .readdirSync(path.join(here, 'scenarios'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  const unknown = only.filter((n) => !names.includes(n));
  if (unknown.length) {
    process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}; known: ${names.join(', ')}\n`);
    process.exit(2);
  }
  const machine = await machineInfo();
  process.stdout.write(
    `machine: ${machine.cores} cores, ${machine.cpu_model}, ${machine.total_memory_mb} MB, node ${machine.node}, ` +
      `fork+exec /bin/true ${machine.spawn_true_ms} ms (median of ${machine.spawn_runs}), load ${machine.loadavg_1m}\n`,
  );
  const scenarios: Record<string, Outcome> = {};
  for (const name of names) {
    if (only.length && !only.includes(name)) continue;
    process.stdout.write(`bench ${name} … `);
    const t0 = Date.now();
    const r = await runScenario(`${name}.ts`);
    scenarios[name] = r;
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    if ('error' in r) process.stdout.write(`ERROR ${r.error}\n`);
    else {
      process.stdout.write(
        `${r.value} ${r.unit} (baseline ${r.baseline ?? '-'}, ratio ${r.ratio ?? '-'}, goal ${r.goal}, rounds ${r.rounds ?? '?'}) ${r.pass ? 'PASS' : 'FAIL'} [${secs} s]\n`,
      );
    }
  }
  const dir = path.join(here, 'results');
  const file = path.join(dir, 'latest.json');
  // Running a subset updates those scenarios and keeps the others' last figures. `machine` is this
  // run's; when the kept figures were measured on another machine, that one stays as `earlier_machine`.
  const before = only.length && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const previous = before.scenarios ?? {};
  const kept = Object.keys(previous).some((n) => !(n in scenarios));
  const sameMachine = (m?: MachineInfo) => !!m && m.cores === machine.cores && m.cpu_model === machine.cpu_model && m.total_memory_mb === machine.total_memory_mb;
  const earlier = kept && !sameMachine(before.machine) ? { earlier_machine: before.earlier_machine ?? before.machine ?? 'unrecorded' } : {};
  const out = { at: new Date().toISOString(), node: process.version, machine, ...earlier, scenarios: { ...previous, ...scenarios } };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}

void main();
