/**
 * Schedule runs carry a lease (like push batches): a firing still `running` whose process was
 * killed is failed by recovery with a clear reason instead of staying `running` forever; a push
 * firing names its batch from the start, so the interrupted run still points at it. On SQLite and
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RUN_INTERRUPTED_ERROR } from '../../../src/modules/schedules/scheduler.js';
import { LEASE_TTL_MS } from '../../../src/platform/leases.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, until } from '../push/push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('schedule run leases on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let a: number;

  beforeAll(async () => {
    t = await appFor(db);
    a = await addServer(call, shared, 'sched-lease');
  });
  afterAll(async () => {
    await t?.close();
  });

  const runRows = (scheduleId: number) => t.app.services.db.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', scheduleId).execute();
  const insert = async (scheduleId: number, owner: string | null, leaseUntil: string | null) => {
    const r = await t.app.services.db
      .insertInto('schedule_runs')
      .values({
        schedule_id: scheduleId, schedule_type: 'push', slot: '2000-01-01T00:00:00.000Z', started_at: new Date().toISOString(), status: 'running',
        batch_id: 'b-crashed', lease_owner: owner, lease_expires_at: leaseUntil,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  };

  it('a firing holds this process lease while it runs and drops it with its outcome', async () => {
    const res = await call('POST', '/api/schedules', {
      name: 'lease script', schedule_type: 'script', script_content: 'sleep 1', server_ids: [a], fire_at: '2000-01-01T00:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const firing = t.app.services.schedules.runDue(new Date());
    const during = await until(async () => (await runRows(id))[0], 10_000);
    expect(during).toMatchObject({ status: 'running', lease_owner: t.app.services.owner });
    expect(Date.parse(during.lease_expires_at!)).toBeGreaterThan(Date.now());
    await firing;
    expect((await runRows(id))[0]).toMatchObject({ status: 'completed', lease_owner: null, lease_expires_at: null });
  });

  it('recovery fails expired runs with the reason, once; live leases are untouched until they expire', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + LEASE_TTL_MS).toISOString();
    const expired = await insert(990_001, 'dead-host:1:abcd', past);
    const preLease = await insert(990_001, null, null);
    const live = await insert(990_002, 'other-host:2:abcd', future);
    await t.app.services.schedules.renewLeases();
    const recovered = await t.app.services.schedules.recoverExpired();
    expect(recovered.sort((x, y) => x - y)).toEqual([expired, preLease]);
    expect(await t.app.services.schedules.recoverExpired()).toEqual([]);
    const rows = await runRows(990_001);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'failed', error: RUN_INTERRUPTED_ERROR, batch_id: 'b-crashed', lease_owner: null, lease_expires_at: null });
      expect(r.finished_at).not.toBeNull();
    }
    expect((await runRows(990_002))[0].status).toBe('running');
    expect(await t.app.services.schedules.recoverExpired(Date.now() + 2 * LEASE_TTL_MS)).toEqual([live]);
  });
});
