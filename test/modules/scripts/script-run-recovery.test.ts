/**
 * Script runs carry a lease (like push batches): the process running one names itself and renews
 * an expiry; a run still `running` whose lease ran out (its process was killed) is closed by
 * recovery with a clear reason instead of staying `running` forever. On SQLite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { INTERRUPTED_ERROR } from '../../../src/modules/scripts/script-recovery.js';
import { LEASE_TTL_MS } from '../../../src/platform/leases.js';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { addServer, appFor, caller, until } from '../push/push-helpers.js';

const shared = inject('sshd');

describe.each(dbKinds())('script run leases on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  let a: number;

  beforeAll(async () => {
    t = await appFor(db);
    a = await addServer(call, shared, 'lease-a');
  });
  afterAll(async () => {
    await t?.close();
  });

  const row = (runId: string) => t.app.services.db.selectFrom('script_runs').selectAll().where('run_id', '=', runId).executeTakeFirstOrThrow();
  const pending = (id: number, status = 'pending') => ({ server_id: id, server_name: `s${id}`, status, exit_code: null, duration_ms: null, error: null, stdout: '', stderr: '' });
  const insert = async (lease: { owner: string | null; until: string | null }, results: unknown[]) => {
    const runId = randomUUID();
    await t.app.services.db
      .insertInto('script_runs')
      .values({
        run_id: runId, label: 'crashed', script_id: null, schedule_id: null, operator: 'admin', server_ids: '[1,2]', status: 'running',
        total: results.length, results: JSON.stringify(results), started_at: new Date(Date.now() - 60_000).toISOString(),
        lease_owner: lease.owner, lease_expires_at: lease.until,
      })
      .execute();
    return runId;
  };

  it('a running run holds this process lease until it ends; the lease is dropped with its outcome', async () => {
    const res = await call('POST', '/api/scripts/run', { server_ids: [a], script_content: 'sleep 1; echo ok', async: true });
    expect(res.statusCode, res.body).toBe(202);
    const runId = res.json().run_id;
    const during = await row(runId);
    expect(during.lease_owner).toBe(t.app.services.owner);
    expect(Date.parse(during.lease_expires_at!)).toBeGreaterThan(Date.now());
    // Renewal moves the expiry of this process's runs forward.
    await t.app.services.scriptRuns.renew(new Date(Date.now() + 5 * LEASE_TTL_MS).toISOString());
    expect(Date.parse((await row(runId)).lease_expires_at!)).toBeGreaterThan(Date.now() + 4 * LEASE_TTL_MS);
    const done = await until(async () => {
      const r = await row(runId);
      return r.status !== 'running' && r;
    }, 30_000);
    expect(done).toMatchObject({ status: 'success', lease_owner: null, lease_expires_at: null });
  });

  it('recovery fails the unfinished servers of an expired run with the reason; live leases and other runs are untouched', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + LEASE_TTL_MS).toISOString();
    const ok = { ...pending(1, 'success'), exit_code: 0, duration_ms: 5 };
    const expired = await insert({ owner: 'dead-host:1:abcd', until: past }, [ok, pending(2, 'running')]);
    const preLease = await insert({ owner: null, until: null }, [pending(1)]);
    const live = await insert({ owner: 'other-host:2:abcd', until: future }, [pending(1)]);
    // The same owner string as a dead process: renewal by this process does not touch it.
    await t.app.services.scriptRuns.renew(future);
    expect((await row(expired)).lease_expires_at).toBe(past);

    const closed = await t.app.services.scriptRuns.recoverExpired();
    expect(closed.sort()).toEqual([expired, preLease].sort());
    expect(await t.app.services.scriptRuns.recoverExpired()).toEqual([]);

    const view = (await call('GET', `/api/scripts/runs/${expired}`)).json();
    expect(view).toMatchObject({ status: 'partial', succeeded: 1, failed: 1, finished_at: expect.any(String) });
    expect(view.servers.map((s: { status: string; error: string | null }) => [s.status, s.error])).toEqual([
      ['success', null],
      ['failed', INTERRUPTED_ERROR],
    ]);
    expect(await row(expired)).toMatchObject({ lease_owner: null, lease_expires_at: null });
    expect((await call('GET', `/api/scripts/runs/${preLease}`)).json()).toMatchObject({ status: 'failed', failed: 1 });
    expect((await row(live)).status).toBe('running');
    // Once its lease runs out too, it is recovered.
    expect(await t.app.services.scriptRuns.recoverExpired(Date.now() + 2 * LEASE_TTL_MS)).toEqual([live]);
  });
});
