/**
 * The console's first page in one read: servers by status, active alerts (from real heartbeats
 * crossing thresholds), the last pushes without their results, and retry jobs by status.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushRepository } from '../../../src/modules/push/push.repository.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { createServer, heartbeat, monitoredServer } from '../agent/agent-helpers.js';

describe.each(dbKinds())('dashboard on %s', (db) => {
  let t: TestApp;
  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers: await t.auth() });

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());

  it('starts empty', async () => {
    const res = await get('/api/dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      servers: { total: 0, online: 0, offline: 0, unknown: 0, no_agent: 0, ssh: { reachable: 0, failing: 0, never: 0 } },
      alerts: { active: 0, items: [] },
      pushes: [],
      retries: { pending: 0, running: 0, succeeded: 0, failed: 0, recent_failed: [] },
    });
  });

  it('shows servers by status, the alerts open now, the last pushes and retry jobs', async () => {
    const hot = await monitoredServer(t, `hot-${randomUUID().slice(0, 6)}`);
    const calm = await monitoredServer(t, `calm-${randomUUID().slice(0, 6)}`);
    await createServer(t, `never-${randomUUID().slice(0, 6)}`);
    expect((await heartbeat(t, hot.token, { cpu: 97, disk: 95 })).statusCode).toBe(200);
    expect((await heartbeat(t, calm.token, { cpu: 5 })).statusCode).toBe(200);
    // A recovered alert is not active any more.
    expect((await heartbeat(t, calm.token, { mem: 99 })).statusCode).toBe(200);
    expect((await heartbeat(t, calm.token, { mem: 10 })).statusCode).toBe(200);

    const repo = new PushRepository(t.app.services.db);
    for (let i = 0; i < 7; i++) {
      await repo.createBatch(
        {
          batch_id: `dash_${i}_${randomUUID().slice(0, 6)}`, status: 'running', operator: 'admin', source_path: '/tmp/svc_upload_x',
          target_path: null, sync_mode: 'incremental', started_at: new Date(Date.now() + i * 1000).toISOString(),
          total: 1, succeeded: 0, failed: 0, skipped: 0, lease_owner: 'me', lease_expires_at: new Date(Date.now() + 60_000).toISOString(),
        },
        [{ server_id: hot.id, server_name: 'hot', status: 'pending' }],
      );
    }
    const jobs = t.app.services.retries;
    const failedJob = await jobs.createForFailure({
      serverId: hot.id, serverName: 'hot', operator: 'admin', source: '/tmp/svc_upload_x', targetPath: '/srv', mode: 'incremental', batchId: null, error: 'boom',
    });
    await t.app.services.db.updateTable('retry_jobs').set({ status: 'failed' }).where('id', '=', failedJob).execute();
    await jobs.createForFailure({
      serverId: calm.id, serverName: 'calm', operator: 'admin', source: '/tmp/svc_upload_x', targetPath: '/srv', mode: 'incremental', batchId: null, error: 'later',
    });

    const d = (await get('/api/dashboard')).json();
    expect(d.servers).toEqual({ total: 3, online: 2, offline: 0, unknown: 1, no_agent: 1, ssh: { reachable: 0, failing: 0, never: 3 } });
    expect(d.alerts.active).toBe(2);
    expect(d.alerts.items.map((a: { server_id: number; alert_type: string }) => [a.server_id, a.alert_type]).sort()).toEqual([
      [hot.id, 'cpu'],
      [hot.id, 'disk'],
    ]);
    expect(d.alerts.items[0]).toMatchObject({ server_name: expect.stringMatching(/^hot-/), value: expect.any(Number), since: expect.any(String) });
    expect(d.pushes).toHaveLength(5);
    expect(d.pushes[0].batch_id).toMatch(/^dash_6_/);
    expect(d.pushes[0]).not.toHaveProperty('results');
    expect(d.retries).toMatchObject({ pending: 1, failed: 1, running: 0, succeeded: 0 });
    expect(d.retries.recent_failed).toEqual([expect.objectContaining({ id: failedJob, status: 'failed', last_error: 'boom' })]);

    const active = (await get('/api/alert-history/active?limit=1')).json();
    expect(active).toMatchObject({ active: 2 });
    expect(active.items).toHaveLength(1);
    const page = (await get('/api/sync/batch-summaries?limit=3&offset=2')).json();
    expect(page).toMatchObject({ total: 7, limit: 3, offset: 2 });
    expect(page.items.map((b: { batch_id: string }) => b.batch_id.split('_')[1])).toEqual(['4', '3', '2']);
    expect((await get('/api/sync/batch-summaries?status=completed')).json()).toMatchObject({ total: 0, items: [] });
    expect((await get('/api/sync/batch-summaries?status=nope')).statusCode).toBe(422);
  });
});
