/**
 * The foreign keys of migration 20261126T1801: it succeeds on a database with orphan rows
 * (cleaning or nulling them first), and deleting a preset or a batch then has the stated effect.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { dbKinds, type DbKind } from '../helpers/targets.js';
import { type Cleanup, freshDb as freshDbOf } from './fresh-db.js';

const BEFORE = '20261126T1703-agent-heartbeats';
const cleanups: Cleanup[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

const freshDb = (kind: DbKind) => freshDbOf(kind, cleanups);

const now = new Date().toISOString();
const batch = (id: string) => ({
  batch_id: id, status: 'completed' as const, operator: 'admin', source_path: '/tmp/s', target_path: '/srv', sync_mode: 'incremental' as const,
  started_at: now, finished_at: now, total: 1, succeeded: 1, failed: 0, skipped: 0,
});
const result = (batchId: string) => ({
  batch_id: batchId, server_id: 1, server_name: 'a', status: 'success' as const, files_transferred: 1, bytes_transferred: 1, duration_ms: 1,
  error: null, retry_job_id: null,
});
const retryJob = (batchId: string | null) => ({
  server_id: 1, server_name: 'a', operator: 'admin', source_path: '/tmp/s', target_path: '/srv', sync_mode: 'incremental' as const, batch_id: batchId,
  status: 'pending' as const, retry_count: 0, max_retries: 3, next_retry_at: now, last_error: null, created_at: now, updated_at: now,
});
const server = (name: string, presets: { password?: number; key?: number }) => ({
  name, host: 'h', port: 22, username: 'u', auth_type: 'password', ssh_key_preset_id: presets.key ?? null,
  password_preset_id: presets.password ?? null, password_enc: null, private_key_enc: null, target_path: null, tags: '[]',
  host_key_fingerprint: null, created_at: now, updated_at: now,
});

describe.each(dbKinds())('foreign keys on %s', (kind) => {
  it('the migration cleans orphans first, then deleting a preset, a batch or a server has the stated effect', async () => {
    const h = await freshDb(kind);
    const { db } = h;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo(BEFORE);
    expect(before.error).toBeUndefined();

    // A database as it may be found: rows pointing at presets and batches that no longer exist.
    const pw = await db.insertInto('password_presets').values({ name: 'p', username: 'u', password_enc: 'x', created_at: now }).returning('id').executeTakeFirstOrThrow();
    const key = await db
      .insertInto('ssh_key_presets')
      .values({ name: 'k', username: 'u', private_key_enc: 'x', public_key: 'pk', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const kept = await db.insertInto('servers').values(server('kept', { password: pw.id, key: key.id })).returning('id').executeTakeFirstOrThrow();
    const orphan = await db.insertInto('servers').values(server('orphan', { password: 9999, key: 9998 })).returning('id').executeTakeFirstOrThrow();
    const gone = await db.insertInto('servers').values(server('gone', {})).returning('id').executeTakeFirstOrThrow();
    await db.deleteFrom('servers').where('id', '=', gone.id).execute();
    await db.insertInto('push_batches').values(batch('b1')).execute();
    await db.insertInto('push_results').values([result('b1'), result('ghost')]).execute();
    await db.insertInto('push_events').values([
      { batch_id: 'b1', seq: 1, payload: '{}', created_at: now },
      { batch_id: 'ghost', seq: 1, payload: '{}', created_at: now },
    ]).execute();
    await db.insertInto('retry_jobs').values([retryJob('b1'), retryJob('ghost')]).execute();

    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations).filter((name) => name > BEFORE));

    const servers = await db.selectFrom('servers').select(['name', 'password_preset_id', 'ssh_key_preset_id']).orderBy('id').execute();
    expect(servers).toEqual([
      { name: 'kept', password_preset_id: pw.id, ssh_key_preset_id: key.id },
      { name: 'orphan', password_preset_id: null, ssh_key_preset_id: null },
    ]);
    expect((await db.selectFrom('push_results').select('batch_id').execute()).map((r) => r.batch_id)).toEqual(['b1']);
    expect((await db.selectFrom('push_events').select('batch_id').execute()).map((r) => r.batch_id)).toEqual(['b1']);
    expect((await db.selectFrom('retry_jobs').select('batch_id').orderBy('id').execute()).map((r) => r.batch_id)).toEqual(['b1', null]);
    // A rebuilt table keeps its counter: the id of a deleted server is never handed out again.
    const next = await db.insertInto('servers').values(server('next', {})).returning('id').executeTakeFirstOrThrow();
    expect(next.id).toBeGreaterThan(gone.id);
    expect(orphan.id).toBeLessThan(gone.id);

    // Deleting a preset: its servers fall back to inline credentials (SET NULL), they stay.
    await db.deleteFrom('password_presets').where('id', '=', pw.id).execute();
    await db.deleteFrom('ssh_key_presets').where('id', '=', key.id).execute();
    expect(await db.selectFrom('servers').select(['password_preset_id', 'ssh_key_preset_id']).where('id', '=', kept.id).executeTakeFirst()).toEqual({
      password_preset_id: null,
      ssh_key_preset_id: null,
    });

    // Deleting a batch: its results and live messages go (CASCADE), its retry job stays unlinked,
    // a schedule run keeps the batch id it recorded (no key: it is written before the batch exists).
    await db.insertInto('schedules').values({
      name: 's', schedule_type: 'push', source_path: '/tmp/s', target_path: null, server_ids: '[1]', run_mode: 'once', cron_expr: null,
      fire_at: now, sync_mode: 'incremental', enabled: 1, script_id: null, script_content: null, exec_timeout: 60, long_task: 0,
      last_run_at: null, created_at: now,
    }).execute();
    const schedule = await db.selectFrom('schedules').select('id').executeTakeFirstOrThrow();
    await db.insertInto('schedule_runs').values({ schedule_id: schedule.id, schedule_type: 'push', slot: now, started_at: now, finished_at: null, status: 'running', batch_id: 'b1', run_id: null, error: null }).execute();
    await db.deleteFrom('push_batches').where('batch_id', '=', 'b1').execute();
    expect(await db.selectFrom('push_results').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('push_events').selectAll().execute()).toEqual([]);
    expect((await db.selectFrom('retry_jobs').select('batch_id').execute()).map((r) => r.batch_id)).toEqual([null, null]);
    expect((await db.selectFrom('schedule_runs').select('batch_id').execute()).map((r) => r.batch_id)).toEqual(['b1']);

    // Deleting a server: its history stays (push results, retry jobs and alerts keep server_id
    // and the name they recorded); only rows with a key to it would follow.
    await db.insertInto('push_batches').values(batch('b3')).execute();
    await db.insertInto('push_results').values({ ...result('b3'), server_id: kept.id }).execute();
    await db.insertInto('retry_jobs').values({ ...retryJob('b3'), server_id: kept.id }).execute();
    await db.insertInto('alert_log').values({ server_id: kept.id, server_name: 'kept', alert_type: 'cpu', value: 99, is_recovery: 0, created_at: now }).execute();
    await db.deleteFrom('servers').where('id', '=', kept.id).execute();
    expect(await db.selectFrom('push_results').select('server_id').where('batch_id', '=', 'b3').execute()).toEqual([{ server_id: kept.id }]);
    expect(await db.selectFrom('retry_jobs').select('server_id').where('batch_id', '=', 'b3').execute()).toEqual([{ server_id: kept.id }]);
    expect(await db.selectFrom('alert_log').select('server_name').where('server_id', '=', kept.id).execute()).toEqual([{ server_name: 'kept' }]);

    // A new row naming a batch that does not exist is refused.
    await expect(db.insertInto('push_results').values(result('nope')).execute()).rejects.toThrow(/foreign key/i);

    // Indexes and unique constraints survived the rebuild.
    await db.insertInto('push_batches').values(batch('b2')).execute();
    await db.insertInto('push_results').values(result('b2')).execute();
    await expect(db.insertInto('push_results').values(result('b2')).execute()).rejects.toThrow(/unique/i);
    if (kind === 'sqlite') {
      const idx = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'servers' and sql is not null`.execute(db);
      expect(idx.rows.map((r) => r.name)).toContain('servers_agent_token');
    }
  });

  it('rolls back to the tables without keys', async () => {
    const h = await freshDb(kind);
    await migrateToLatest(h.db);
    await migrations['20261126T1801-foreign-keys'].down!(h.db);
    await h.db.insertInto('push_results').values(result('nope')).execute();
    expect(await h.db.selectFrom('push_results').select('batch_id').execute()).toEqual([{ batch_id: 'nope' }]);
  });
});
