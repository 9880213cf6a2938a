/**
 * The open alerts as the log knows them (every server+type whose newest row is not a recovery,
 * servers that still exist) read from the trigger-kept `alert_latest` (rows, keys and their count):
 * the migration fills it from an existing log, and every kind of write keeps it equal to a
 * brute-force reading of the log.
 */
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { migrations } from '../../../src/db/migrations/index.js';
import type { Database } from '../../../src/db/types.js';
import type { ActiveAlertStore } from '../../../src/modules/alerts/active-alerts.store.js';
import { ActiveAlertsService } from '../../../src/modules/alerts/active-alerts.service.js';
import { AlertLogRepository } from '../../../src/modules/alerts/alert-log.repository.js';
import { type Cleanup, freshDb } from '../../db/fresh-db.js';
import { dbKinds } from '../../helpers/targets.js';

const BEFORE = '20261127T0103-scale-indexes';
const TYPES = ['cpu', 'mem', 'disk'];
const cleanups: Cleanup[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute)).toISOString();
const server = (name: string) => ({ name, host: 'h', port: 22, username: 'u', auth_type: 'key', tags: '[]', created_at: at(0), updated_at: at(0) });

/** Deterministic rows over `servers` (and one id that is no server), `n` of them from minute `from`. */
function rows(servers: number[], n: number, from: number) {
  let x = from + 7;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  const ids = [...servers, 9999];
  return Array.from({ length: n }, (_, i) => ({
    server_id: ids[Math.floor(rnd() * ids.length)],
    server_name: null,
    alert_type: TYPES[Math.floor(rnd() * TYPES.length)],
    value: 90,
    is_recovery: rnd() < 0.45 ? 1 : 0,
    created_at: at(from + i),
  }));
}

/** The open alerts computed from the whole log, newest first. */
async function bruteForce(db: Kysely<Database>): Promise<Array<{ id: number; server_id: number; alert_type: string }>> {
  const log = await db.selectFrom('alert_log').select(['id', 'server_id', 'alert_type', 'is_recovery']).execute();
  const existing = new Set((await db.selectFrom('servers').select('id').execute()).map((s) => Number(s.id)));
  const newest = new Map<string, (typeof log)[number]>();
  for (const r of log) {
    const k = `${r.server_id}:${r.alert_type}`;
    if (!newest.has(k) || Number(newest.get(k)!.id) < Number(r.id)) newest.set(k, r);
  }
  return [...newest.values()]
    .filter((r) => Number(r.is_recovery) === 0 && existing.has(Number(r.server_id)))
    .map((r) => ({ id: Number(r.id), server_id: Number(r.server_id), alert_type: r.alert_type }))
    .sort((a, b) => b.id - a.id);
}

async function expectSameAsLog(db: Kysely<Database>, step: string): Promise<void> {
  const repo = new AlertLogRepository(db);
  const expected = await bruteForce(db);
  const open = await repo.openRows(10_000);
  expect(open.map((r) => ({ id: Number(r.id), server_id: Number(r.server_id), alert_type: r.alert_type })), step).toEqual(expected);
  const keys = (await repo.openKeys()).map((k) => `${k.server_id}:${k.alert_type}`).sort();
  expect(keys, step).toEqual(expected.map((e) => `${e.server_id}:${e.alert_type}`).sort());
  expect(await repo.openCount(), step).toBe(expected.length);
  expect((await repo.openRows(3)).map((r) => Number(r.id)), step).toEqual(expected.slice(0, 3).map((e) => e.id));
}

describe.each(dbKinds())('open alerts on %s', (kind) => {
  it('the migration fills the newest row of each server and type from an existing log', async () => {
    const { db } = await freshDb(kind, cleanups);
    const before = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(BEFORE);
    expect(before.error).toBeUndefined();
    const ids = [];
    for (const name of ['a', 'b', 'c']) ids.push((await db.insertInto('servers').values(server(name)).returning('id').executeTakeFirstOrThrow()).id);
    await db.insertInto('alert_log').values(rows(ids, 120, 0)).execute();
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations).filter((name) => name > BEFORE));
    expect((await bruteForce(db)).length).toBeGreaterThan(2);
    await expectSameAsLog(db, 'after the migration');
  });

  it('inserts, deletes and updates of any shape keep it equal to the log', async () => {
    const { db } = await freshDb(kind, cleanups);
    await migrateToLatest(db);
    const ids = [];
    for (const name of ['a', 'b', 'c', 'd']) ids.push((await db.insertInto('servers').values(server(name)).returning('id').executeTakeFirstOrThrow()).id);
    // One statement holding several rows of the same server and type: the highest id wins.
    await db.insertInto('alert_log').values(rows(ids, 200, 0)).execute();
    await expectSameAsLog(db, 'bulk insert');
    for (const r of rows(ids, 30, 200)) await db.insertInto('alert_log').values(r).execute();
    await expectSameAsLog(db, 'single inserts');

    const newestOpen = (await bruteForce(db))[0];
    await db.deleteFrom('alert_log').where('id', '=', newestOpen.id).execute();
    await expectSameAsLog(db, 'the newest row of an open pair deleted: the one before it counts');

    const [pair] = await bruteForce(db);
    await db.updateTable('alert_log').set({ is_recovery: 1 }).where('id', '=', pair.id).execute();
    await expectSameAsLog(db, 'the newest row of a pair turned into a recovery');

    await db.updateTable('alert_log').set({ alert_type: 'disk' }).where('server_id', '=', ids[0]).where('alert_type', '=', 'mem').execute();
    await expectSameAsLog(db, 'rows moved from one type to another');

    await db.deleteFrom('alert_log').where('server_id', '=', ids[1]).where('alert_type', '=', 'cpu').execute();
    await expectSameAsLog(db, 'every row of a pair deleted');

    await db.deleteFrom('alert_log').where('created_at', '<', at(150)).execute();
    await expectSameAsLog(db, 'retention: everything older than a cut-off deleted');

    await db.deleteFrom('servers').where('id', '=', ids[2]).execute();
    await expectSameAsLog(db, 'a server deleted');

    // With the cache (the live set) unreachable, the active count comes from the log.
    const deadCache = { count: () => Promise.reject(new Error('cache unreachable')) } as unknown as ActiveAlertStore;
    const view = await new ActiveAlertsService(new AlertLogRepository(db), deadCache).list(3);
    expect(view.active).toBe((await bruteForce(db)).length);
    expect(view.items.map((i) => i.id)).toEqual((await bruteForce(db)).slice(0, 3).map((e) => e.id));
  });
});
