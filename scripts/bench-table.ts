/**
 * `npm run bench:table`: the latest `npm run bench` results (bench/results/latest.json) as the
 * Markdown table the README's performance section shows: each scenario, its figure, the peer it
 * is measured against in the same run, the ratio, the goal and the outcome, under the machine line.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The peer each scenario is measured against, named for readers of the table. */
export const PEERS: Record<string, string> = {
  'alert-history-1m': 'the same Kysely queries behind a bare Fastify route in its own process (SQLite and PostgreSQL, 1 and 8 clients)',
  'api-overhead': 'a bare Fastify 5 route in its own process',
  'fleet-10k': 'the same Kysely queries behind a bare Fastify route in its own process (SQLite and PostgreSQL, 1 and 8 clients)',
  'heartbeat-ingest': 'a bare Fastify 5 POST route in its own process',
  'login-latency': 'one Argon2id verify at the same parameters, same process',
  memory: 'a bare Fastify 5 process (RSS)',
  'notification-fanout': 'a bare parallel fetch to the same 10 loopback receivers',
  'push-fanout': '8 parallel plain rsync -a, and prsync (parallel-rsync -p 8)',
  'push-noop': '8 parallel plain rsync -a no-ops, and prsync',
  restart: 'the goal itself (3 s)',
  'settings-propagation': 'the goal itself (50 ms)',
  'ssh-exec-pooled': 'OpenSSH multiplexing (ControlMaster), and a new ssh per command',
  'upload-500mb': 'OpenSSH sftp -b of the same file',
  'validate-10k': 'find DIR -type f | wc -l',
  'verify-10k': 'local and remote sha256sum at the same time (one ssh connection)',
  'web-console': 'the same console table from static JSON',
  'zip-extract': 'curl upload to a bare Fastify route, then unzip',
};

interface Result {
  value?: number;
  unit?: string;
  baseline?: number | null;
  ratio?: number | null;
  goal?: string;
  pass: boolean;
  rounds?: number;
  error?: string;
}

export function benchTable(latest: { at: string; machine?: Record<string, unknown>; scenarios: Record<string, Result> }): string {
  const m = latest.machine ?? {};
  const lines = [
    `Run at ${latest.at} on ${m.cores ?? '?'} cores (${m.cpu_model ?? '?'}), ${m.total_memory_mb ?? '?'} MB, Node ${m.node ?? '?'}, ` +
      `fork+exec of /bin/true ${m.spawn_true_ms ?? '?'} ms, load ${m.loadavg_1m ?? '?'} at the start.`,
    '',
    '| scenario | measured | peer (same run) | peer figure | ratio | goal | result |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, r] of Object.entries(latest.scenarios).sort(([a], [b]) => a.localeCompare(b))) {
    if (r.error) {
      lines.push(`| ${name} | error: ${r.error} | ${PEERS[name] ?? '-'} | - | - | - | FAIL |`);
      continue;
    }
    const cell = (s: unknown) => String(s ?? '-').replace(/\|/g, '\\|');
    lines.push(
      `| ${name} | ${cell(r.value)} ${cell(r.unit)} | ${cell(PEERS[name])} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${cell(r.goal)} | ${r.pass ? 'pass' : 'FAIL'} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.join(ROOT, 'bench/results/latest.json');
  process.stdout.write(`${benchTable(JSON.parse(fs.readFileSync(file, 'utf8')))}\n`);
}
