/**
 * Each table has one owner: only the module that owns a table writes it (INSERT, UPDATE, DELETE,
 * through Kysely or raw SQL); others call that module's service or a port it exports. And no
 * module but servers reads the credential columns of `servers` — they leave that module only
 * as a resolved connection (`ServersService.connectionFor`). Migrations (src/db) are exempt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Who writes each table, derived from the code (one folder under src/ each). A new table must be
 * added here: a write to a table missing from this map fails the test too.
 */
const OWNERS: Record<string, string> = {
  admins: 'modules/admins',
  refresh_families: 'modules/auth',
  settings: 'platform/settings',
  audit_log: 'platform/audit',
  idempotency_keys: 'platform/idempotency',
  servers: 'modules/servers',
  password_presets: 'modules/presets',
  ssh_key_presets: 'modules/ssh-key-presets',
  agent_heartbeats: 'modules/agent',
  agent_latest_reading: 'modules/agent',
  alert_log: 'modules/alerts',
  notice_claims: 'modules/alerts',
  scripts: 'modules/scripts',
  script_runs: 'modules/scripts',
  script_run_events: 'modules/scripts',
  schedules: 'modules/schedules',
  schedule_runs: 'modules/schedules',
  retry_jobs: 'modules/retries',
  push_batches: 'modules/push',
  push_results: 'modules/push',
  push_events: 'modules/push',
  push_target_claims: 'modules/push',
  notification_channels: 'modules/notification-channels',
  notification_outbox: 'platform/notifications',
};

/** Columns of `servers` that hold credentials (see SERVER_SECRET_COLUMNS in the servers module). */
const SERVER_SECRETS = ['password_enc', 'private_key_enc', 'agent_token_hash'];

const SRC = path.resolve('src');

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p.endsWith(path.join('src', 'db')) ? [] : sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The code without comments, so prose like "update servers" is not taken for a write. */
function code(file: string): string {
  return fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** `modules/push` for src/modules/push/x.ts, `platform/audit` for src/platform/audit/y.ts, else the top folder. */
function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'modules' || parts[0] === 'platform' ? `${parts[0]}/${parts[1]}` : parts[0];
}

const WRITES = [
  /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'(\w+)'/g,
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+"?(\w+)"?/g,
];

interface Write {
  table: string;
  folder: string;
  file: string;
}

function writes(): Write[] {
  const found: Write[] = [];
  for (const file of sources()) {
    const text = code(file);
    for (const re of WRITES) {
      for (const m of text.matchAll(re)) found.push({ table: m[1], folder: folderOf(file), file: path.relative(SRC, file) });
    }
  }
  return found;
}

describe('table ownership', () => {
  const all = writes();

  it('finds the writes it checks (the scanner is not blind)', () => {
    const servers = all.filter((w) => w.table === 'servers').map((w) => w.folder);
    expect(servers).toContain('modules/servers');
    // Kysely calls and raw SQL are both seen: the batched heartbeat UPDATE is raw SQL.
    expect(all.some((w) => w.table === 'servers' && w.file.endsWith('server-state.repository.ts'))).toBe(true);
    expect(new Set(all.map((w) => w.table)).size).toBeGreaterThan(15);
  });

  it('every table is written only by its owner', () => {
    const foreign = all
      .filter((w) => w.table in OWNERS || /^[a-z]+_[a-z_]+$/.test(w.table))
      .filter((w) => OWNERS[w.table] !== w.folder)
      .map((w) => `${w.file} writes ${w.table} (owner: ${OWNERS[w.table] ?? 'none listed'})`);
    expect(foreign).toEqual([]);
  });

  it('no module but servers reads the secret columns of servers', () => {
    const leaks: string[] = [];
    const readsServers = /\b(?:selectFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'servers'|\bFROM\s+servers\b|\bJOIN\s+servers\b/i;
    for (const file of sources()) {
      if (folderOf(file) === 'modules/servers') continue;
      // Statement by statement: a query that reads servers may name no secret column nor select all.
      for (const statement of code(file).split(';')) {
        if (!readsServers.test(statement)) continue;
        const where = path.relative(SRC, file);
        for (const col of SERVER_SECRETS) if (new RegExp(`\\b${col}\\b`).test(statement)) leaks.push(`${where} reads servers.${col}`);
        if (/\.selectAll\(\s*(?:'servers')?\s*\)|\bselect\s+\*|servers\.\*/i.test(statement)) leaks.push(`${where} selects every column of servers`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('the secret check sees a leak where there is one', () => {
    // The servers module itself reads its secrets; the same statements elsewhere would be refused.
    const own = sources().filter((f) => folderOf(f) === 'modules/servers').map((f) => code(f));
    expect(own.some((t) => /selectFrom\('servers'\)\s*\.selectAll\(\)/.test(t))).toBe(true);
    expect(own.some((t) => t.includes('agent_token_hash'))).toBe(true);
  });
});
