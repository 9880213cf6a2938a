/**
 * `npm run soak`: mixed load against the real service started as a process (the compiled build,
 * as `npm start` runs it), in two configurations: the embedded default (SQLite + memory cache)
 * and PostgreSQL + Redis with WORKERS=2 (a database and key prefix of its own). 2,000 agents send
 * heartbeats, pushes go to real sshd targets, an administrator browses, changes settings and signs
 * in and out. Every 10 s it samples each service process's RSS and open descriptors from /proc and
 * from its `GET /metrics`, and after the warm-up (the first 20 %) it asserts: growth <= 10 %, no
 * error-level line in the service's log, every push accounted for. Writes
 * bench/results/soak-latest.json, prints a table, exits 1 when a goal fails.
 *
 *   npm run soak                      30 minutes per configuration (SOAK_MINUTES to change)
 *   npm run soak -- --quick           2 minutes per configuration
 *   npm run soak -- --only=embedded   one configuration (embedded | cluster)
 *
 * Not part of `npm test`: it takes the machine for its whole duration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { round } from './lib.js';
import { ownBackends, type Backends } from './soak/backends.js';
import { runConfig, type ConfigResult, type SoakConfig, type SoakOptions } from './soak/run-config.js';
import { buildService, root } from './soak/service.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const minutes = quick ? 2 : Number(process.env.SOAK_MINUTES ?? 30);
if (!(minutes > 0)) {
  process.stderr.write('SOAK_MINUTES must be a positive number\n');
  process.exit(2);
}

const resultsDir = path.join(root, 'bench', 'results');
const options: SoakOptions = {
  durationS: Math.round(minutes * 60),
  agents: Number(process.env.SOAK_AGENTS ?? 2000),
  targets: Number(process.env.SOAK_TARGETS ?? 4),
  // Agents send every 30 s by default; the soak runs them three times as often.
  heartbeatIntervalS: Number(process.env.SOAK_HEARTBEAT_INTERVAL_S ?? 10),
  pushIntervalS: Number(process.env.SOAK_PUSH_INTERVAL_S ?? 15),
  sampleS: 10,
  logDir: resultsDir,
};

const configs: Array<{ name: string; prepare: () => Promise<{ cfg: SoakConfig; backends: Backends | null }> }> = [
  { name: 'embedded', prepare: async () => ({ cfg: { name: 'embedded', env: {}, workers: 1 }, backends: null }) },
  {
    name: 'cluster',
    prepare: async () => {
      const backends = await ownBackends();
      return { cfg: { name: 'cluster', env: { ...backends.env, WORKERS: '2' }, workers: 2 }, backends };
    },
  },
];

const mib = (n: number) => `${round(n / 1024 / 1024, 1)} MiB`;
const pct = (g: number) => `${g >= 0 ? '+' : ''}${round(g * 100, 1)} %`;

function table(r: ConfigResult): string {
  const lines = [`${r.config}: ${r.pass ? 'PASS' : 'FAIL'}`];
  for (const g of r.growth) {
    const rss = g.rss ? `${mib(g.rss.from)} → ${mib(g.rss.to)} (${pct(g.rss.growth)})` : '-';
    const fds = g.fds ? `${g.fds.from} → ${g.fds.to} (${pct(g.fds.growth)})` : '-';
    const heap = g.metrics_heap_used ? ` heap ${pct(g.metrics_heap_used.growth)}` : '';
    lines.push(`  pid ${String(g.pid).padEnd(8)} rss ${rss.padEnd(34)} fds ${fds}${heap}`);
  }
  const f = r.service_fds.fds;
  if (f) lines.push(`  service fds ${f.from} → ${f.to} (${pct(f.growth)})`);
  const kinds = Object.entries(r.requests)
    .map(([k, v]) => `${k} ${v.ok}${v.failed ? `/${v.failed} failed` : ''} (p99 ${v.p99_ms} ms)`)
    .join(', ');
  lines.push(`  requests: ${kinds}`);
  lines.push(`  pushes: ${r.pushes.started} batches, servers ${JSON.stringify(r.pushes.servers)}; log: ${JSON.stringify(r.log.byLevel)}`);
  for (const g of r.goals) lines.push(`  ${g.pass ? 'ok  ' : 'FAIL'} ${g.name}: ${g.detail}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const chosen = configs.filter((c) => !only || c.name === only);
  if (!chosen.length) throw new Error(`unknown configuration ${only}; known: ${configs.map((c) => c.name).join(', ')}`);
  process.stdout.write(`soak: ${minutes} min per configuration (${chosen.map((c) => c.name).join(', ')}); building the service …\n`);
  buildService();
  const results: Record<string, ConfigResult | { pass: false; error: string }> = {};
  for (const c of chosen) {
    process.stdout.write(`soak ${c.name} …\n`);
    let backends: Backends | null = null;
    try {
      const prepared = await c.prepare();
      backends = prepared.backends;
      const r = await runConfig(prepared.cfg, options);
      results[c.name] = r;
      process.stdout.write(`${table(r)}\n`);
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      results[c.name] = { pass: false, error };
      process.stdout.write(`${c.name}: ERROR ${error}\n`);
    } finally {
      await backends?.drop().catch((err: unknown) => process.stderr.write(`could not clean up the cluster's database/keys: ${err}\n`));
    }
  }
  const out = { at: new Date().toISOString(), node: process.version, quick, minutes, options, configs: results };
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'soak-latest.json');
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  const pass = Object.values(results).every((r) => r.pass);
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}: ${pass ? 'PASS' : 'FAIL'}\n`);
  process.exit(pass ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
