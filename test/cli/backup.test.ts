/**
 * `backup <file>` / `restore <file>`: a snapshot taken while pushes and heartbeats keep writing
 * holds every row committed before it started (and nothing from after it finished), restores into
 * a new DATA_DIR (and a new PostgreSQL database), and the restored service decrypts every secret.
 * Restore refuses a non-empty target and a missing or wrong ENCRYPTION_KEY, writing nothing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runBackupCli } from '../../src/cli/backup.js';
import { runRestoreCli } from '../../src/cli/restore.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, makeTestApp, type TestApp } from '../helpers/app.js';
import { createPostgresDatabase, dbKinds, type DbKind, type TempDatabase } from '../helpers/targets.js';
import { heartbeat, monitoredServer } from '../modules/agent/agent-helpers.js';
import { addServer, appFor, caller, remoteDir, rmrf, stagingDir, until } from '../modules/push/push-helpers.js';

const sshd = inject('sshd');
const TSX = path.resolve('node_modules/.bin/tsx');
const SECRET = 'preset-secret-π-42';

function io() {
  const r = { out: '', err: '' };
  const sink = {
    out(t: string) {
      r.out += t;
    },
    err(t: string) {
      r.err += t;
    },
  };
  return { r, io: sink };
}

async function cli(run: typeof runBackupCli, args: string[], env: NodeJS.ProcessEnv) {
  const { r, io: sink } = io();
  const code = await run(args, env, sink);
  return { code, ...r };
}

/** Rows of every table, the migration bookkeeping included. */
async function countRows(db: Kysely<unknown>): Promise<Record<string, number>> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    const r = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    out[name] = Number(r.rows[0].n);
  }
  return out;
}
/** Tables whose rows come and go while pushes run, so their counts are not monotonic. */
const TRANSIENT = new Set(['push_target_claims']);
const dbOf = (t: TestApp) => t.app.services.db as unknown as Kysely<unknown>;

describe.each(dbKinds())('backup and restore on %s', (db: DbKind) => {
  let t: TestApp;
  const call = caller(() => t);
  let work: string;
  const cleanup: string[] = [];
  const dbs: TempDatabase[] = [];
  const sourceEnv = () => ({ DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl });
  /** A new, missing DATA_DIR and, on PostgreSQL, a new empty database. */
  const freshTarget = async (): Promise<Record<string, string>> => {
    const env: Record<string, string> = { DATA_DIR: path.join(work, `restored-${cleanup.length}`) };
    cleanup.push(env.DATA_DIR);
    if (db === 'postgres') {
      const pg = await createPostgresDatabase();
      dbs.push(pg);
      env.DATABASE_URL = pg.url;
    }
    return env;
  };

  beforeAll(async () => {
    t = await appFor(db);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-backup-test-'));
  });
  afterAll(async () => {
    await t?.close();
    for (const d of dbs) await d.drop().catch(() => {});
    rmrf(work, ...cleanup);
  });

  it('a snapshot taken during pushes and heartbeats restores every row committed before it, and every secret decrypts', async () => {
    const preset = (await call('POST', '/api/presets', { name: 'backup-me', encrypted_pw: SECRET })).json();
    const src = stagingDir({ 'a.txt': 'alpha\n', 'b/c.txt': 'c\n' });
    const target = remoteDir(sshd, 'backup');
    cleanup.push(src, target);
    const serverId = await addServer(call, sshd, 'backup', { target_path: target });
    // Pushes in flight at the snapshot keep their target claims in it, which expire with their
    // leases as after a crash (30 s): the restored service pushes to an idle server instead.
    const idleTarget = remoteDir(sshd, 'backup-idle');
    cleanup.push(idleTarget);
    const idleId = await addServer(call, sshd, 'backup-idle', { target_path: idleTarget });
    const agent = await monitoredServer(t, `hb-${db}`);

    let stop = false;
    let pushes = 0;
    let beats = 0;
    const pushing = (async () => {
      while (!stop) {
        const res = await call('POST', '/api/sync/files', { source_path: src, server_ids: [serverId] });
        if (res.statusCode !== 200) throw new Error(`push failed: ${res.body}`);
        pushes++;
      }
    })();
    const beating = (async () => {
      while (!stop) {
        const res = await heartbeat(t, agent.token, { cpu: beats % 100 });
        if (res.statusCode !== 200) throw new Error(`heartbeat failed: ${res.body}`);
        beats++;
      }
    })();

    let before: Record<string, number>;
    let after: Record<string, number>;
    const file = path.join(work, 'snapshot.tar.gz');
    try {
      await until(async () => pushes >= 2 && beats >= 20, 60_000);
      before = await countRows(dbOf(t));
      const pushesAtStart = pushes;
      const b = await cli(runBackupCli, [file], sourceEnv());
      expect(b.err).toBe('');
      expect(b.code).toBe(0);
      expect(b.out).toContain(`Backup written: ${file}`);
      after = await countRows(dbOf(t));
      // The service kept serving: writes went on while the snapshot was taken.
      await until(async () => pushes > pushesAtStart, 60_000);
    } finally {
      stop = true;
      await Promise.all([pushing, beating]);
    }
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readdirSync(work).filter((n) => n.startsWith('.fleet-backup-') || n.endsWith('.part'))).toEqual([]);

    const env = await freshTarget();
    const r = await cli(runRestoreCli, [file], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect((fs.statSync(env.DATA_DIR).mode & 0o777).toString(8)).toBe('700');
    const restored = await makeTestApp({ env });
    try {
      const counts = await countRows(dbOf(restored));
      expect(Object.keys(counts).sort()).toEqual(Object.keys(before).sort());
      for (const [table, n] of Object.entries(counts)) {
        if (TRANSIENT.has(table)) {
          // A target claim lives only while its push runs (one push at a time here, and its lease
          // runs out after a restore): the snapshot holds the claim of the push running then, or none.
          expect(n, `${table}: claims of pushes running during the backup`).toBeLessThanOrEqual(1);
          continue;
        }
        expect(n, `${table}: rows committed before the backup started`).toBeGreaterThanOrEqual(before[table]);
        expect(n, `${table}: rows after the backup finished`).toBeLessThanOrEqual(after[table]);
      }

      const c = caller(() => restored);
      const reveal = await c('POST', `/api/presets/${preset.id}/reveal`, { current_password: ADMIN_PASSWORD });
      expect(reveal.statusCode, reveal.body).toBe(200);
      expect(reveal.json().password).toBe(SECRET);
      // The server's private key decrypts too: the restored service pushes with it.
      const push = await c('POST', '/api/sync/files', { source_path: src, server_ids: [idleId] });
      expect(push.statusCode, push.body).toBe(200);
      expect(push.json(), push.body).toMatchObject({ status: 'completed', succeeded: 1 });
    } finally {
      await restored.close();
    }
  });

  it('restore refuses a non-empty DATA_DIR (and a non-empty database) with a clear message and writes nothing', async () => {
    // This one as `npm run backup` runs it: a process of its own, with only the service's environment.
    const file = path.join(work, 'refuse.tar.gz');
    const proc = await promisify(execFile)(TSX, ['src/cli/backup.ts', file], { env: { PATH: process.env.PATH ?? '', ...sourceEnv() } });
    expect(proc.stdout).toContain(`Backup written: ${file}`);

    const env = await freshTarget();
    fs.mkdirSync(env.DATA_DIR);
    fs.writeFileSync(path.join(env.DATA_DIR, 'keep.txt'), 'mine');
    const r = await cli(runRestoreCli, [file], env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/DATA_DIR .* is not empty .*restore only into an empty data directory/);
    expect(fs.readdirSync(env.DATA_DIR)).toEqual(['keep.txt']);

    if (db === 'postgres') {
      // The source database is not empty: restoring into it is refused before anything is written.
      const into = { DATA_DIR: path.join(work, 'restored-pg-full'), DATABASE_URL: t.config.databaseUrl };
      const full = await cli(runRestoreCli, [file], into);
      expect(full.code).toBe(1);
      expect(full.err).toMatch(/is not empty \(\d+ tables\).*new, empty database/);
      expect(fs.existsSync(into.DATA_DIR)).toBe(false);
    }
    expect((await cli(runRestoreCli, [], env)).code).toBe(2);
    expect((await cli(runBackupCli, [], env)).code).toBe(2);
  });

  it('ENCRYPTION_KEY from the environment: the backup says it is not inside; restore needs the same key', async () => {
    const key = 'a'.repeat(64);
    const envKeyed = await makeTestApp({ db, env: { ENCRYPTION_KEY: key } });
    try {
      const c = caller(() => envKeyed);
      const preset = (await c('POST', '/api/presets', { name: 'env-key', encrypted_pw: SECRET })).json();
      const file = path.join(work, 'env-key.tar.gz');
      const b = await cli(runBackupCli, [file], { DATA_DIR: envKeyed.dataDir, DATABASE_URL: envKeyed.config.databaseUrl, ENCRYPTION_KEY: key });
      expect(b.code).toBe(0);
      expect(b.out).toMatch(/ENCRYPTION_KEY is set in the environment and is NOT in the archive/);

      const env = await freshTarget();
      const missing = await cli(runRestoreCli, [file], env);
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(/set ENCRYPTION_KEY to that same value/);
      expect(fs.existsSync(env.DATA_DIR)).toBe(false);
      const wrong = await cli(runRestoreCli, [file], { ...env, ENCRYPTION_KEY: 'b'.repeat(64) });
      expect(wrong.code).toBe(1);
      expect(wrong.err).toMatch(/not the key the backup's secrets were encrypted with/);

      const ok = await cli(runRestoreCli, [file], { ...env, ENCRYPTION_KEY: key });
      expect(ok.err).toBe('');
      expect(ok.code).toBe(0);
      expect(fs.existsSync(path.join(env.DATA_DIR, 'encryption_key'))).toBe(false);
      const restored = await makeTestApp({ env: { ...env, ENCRYPTION_KEY: key, ADMIN_USERNAME } });
      try {
        const reveal = await caller(() => restored)('POST', `/api/presets/${preset.id}/reveal`, { current_password: ADMIN_PASSWORD });
        expect(reveal.statusCode, reveal.body).toBe(200);
        expect(reveal.json().password).toBe(SECRET);
      } finally {
        await restored.close();
      }
    } finally {
      await envKeyed.close();
    }
  });
});
