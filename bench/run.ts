/**
 * `npm run bench`: runs every scenario in bench/scenarios (or those named on the command line),
 * each against its own baseline in the same run, and writes bench/results/latest.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Scenario, ScenarioResult } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(path.join(here, 'scenarios'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const scenarios: Record<string, ScenarioResult | { error: string; pass: false }> = {};
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(here, 'scenarios', file)).href)) as { scenario?: Scenario };
    const s = mod.scenario;
    if (!s || (only.length && !only.includes(s.name))) continue;
    process.stdout.write(`bench ${s.name} … `);
    const t0 = Date.now();
    try {
      const r = await s.run();
      scenarios[s.name] = r;
      process.stdout.write(
        `${r.value} ${r.unit} (baseline ${r.baseline ?? '-'}, ratio ${r.ratio ?? '-'}, goal ${r.goal}) ${r.pass ? 'PASS' : 'FAIL'} [${((Date.now() - t0) / 1000).toFixed(1)} s]\n`,
      );
    } catch (err) {
      scenarios[s.name] = { error: err instanceof Error ? err.message : String(err), pass: false };
      process.stdout.write(`ERROR ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  const dir = path.join(here, 'results');
  const file = path.join(dir, 'latest.json');
  // Running a subset updates those scenarios and keeps the others' last figures.
  const previous = only.length && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')).scenarios ?? {}) : {};
  const out = { at: new Date().toISOString(), node: process.version, scenarios: { ...previous, ...scenarios } };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  // Scenarios leave no servers behind, but a stray handle must not keep the bench alive.
  process.exit(0);
}

void main();
