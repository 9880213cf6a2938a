/**
 * PostgreSQL goes away (every connection cut, new ones refused, through a proxy in front of the
 * real server) around a scheduled push to the shared sshd, with the scheduler loop running. A due
 * run is neither skipped (the database away when it falls due: it runs once the database is
 * back) nor run twice, and no run is left `running`: a run that ends while the database is away
 * has its end written when it is back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { HAS_POSTGRES, type PostgresBehindProxy, postgresBehindProxy } from '../helpers/postgres-proxy.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';
import { addServer, bigSource, caller, remoteDir, rmrf, stagingDir, until, writingBig } from '../modules/push/push-helpers.js';

const shared = inject('sshd');

interface RunView {
  status: string;
  slot: string;
  error: string | null;
  batch_id: string | null;
  succeeded: number;
}

describe.runIf(HAS_POSTGRES)('a PostgreSQL outage around a scheduled push', () => {
  let pg: PostgresBehindProxy;
  let proxy: TcpProxy;
  let t: TestApp;
  let stopLoop: (() => Promise<void>) | null = null;
  const call = caller(() => t);
  const cleanup: string[] = [];

  beforeAll(async () => {
    pg = await postgresBehindProxy();
    proxy = pg.proxy;
    t = await makeTestApp({ env: { DATABASE_URL: pg.url } });
    await t.auth();
    stopLoop = t.app.services.schedules.startLoop(200);
  });
  afterAll(async () => {
    proxy?.up();
    await stopLoop?.();
    await t?.close();
    await pg?.close();
    rmrf(...cleanup);
  });

  const runsOf = async (id: number): Promise<RunView[]> => (await call('GET', `/api/schedules/${id}/runs`)).json().items;
  const settled = (id: number) =>
    until(async () => {
      const res = await call('GET', `/api/schedules/${id}/runs`);
      if (res.statusCode !== 200) return false;
      const items: RunView[] = res.json().items;
      return items.length > 0 && items.every((r) => r.status !== 'running') ? items : false;
    }, 60_000, 200);

  it('a run that falls due while the database is away runs once when it is back', async () => {
    const src = stagingDir({ 'due.txt': 'due\n' });
    const dest = remoteDir(shared, 'sched-outage-due');
    cleanup.push(src, dest);
    const serverId = await addServer(call, shared, 'sched-outage-due', { target_path: dest });
    const fireAt = new Date(Date.now() + 1_500).toISOString();
    const created = await call('POST', '/api/schedules', { name: 'due in outage', source_path: src, server_ids: [serverId], fire_at: fireAt });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;

    proxy.down();
    try {
      await until(async () => Date.now() > Date.parse(fireAt) + 3_000, 10_000, 100);
      expect(fs.existsSync(path.join(dest, 'due.txt'))).toBe(false);
    } finally {
      proxy.up();
    }
    const runs = await settled(id);
    expect(runs.map((r) => [r.status, r.slot, r.error])).toEqual([['completed', fireAt, null]]);
    expect(fs.readFileSync(path.join(dest, 'due.txt'), 'utf8')).toBe('due\n');
    const view = (await call('GET', '/api/schedules')).json().find((s: { id: number }) => s.id === id);
    expect(view).toMatchObject({ enabled: false, next_run: null });
  }, 60_000);

  it('a run that ends while the database is away has its end written when it is back, and runs once', async () => {
    const src = bigSource(64);
    const dest = remoteDir(shared, 'sched-outage-end');
    cleanup.push(src, dest);
    const serverId = await addServer(call, shared, 'sched-outage-end', { target_path: dest });
    const created = await call('POST', '/api/schedules', { name: 'ends in outage', source_path: src, server_ids: [serverId], fire_at: new Date().toISOString() });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;

    expect(await writingBig([dest], 30_000)).toBe(true);
    expect((await runsOf(id)).map((r) => r.status)).toEqual(['running']);
    proxy.down();
    try {
      // The transfer finishes while the database is away, so the run's end is written then.
      await until(async () => fs.existsSync(path.join(dest, 'big.bin')), 60_000, 100);
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      proxy.up();
    }
    const runs = await settled(id);
    expect(runs.map((r) => [r.status, r.error, r.succeeded])).toEqual([['completed', null, 1]]);
    const batch = (await call('GET', `/api/sync/batches/${runs[0].batch_id}`)).json();
    expect(batch).toMatchObject({ status: 'completed', succeeded: 1, failed: 0 });
    // Several more scheduler passes change nothing: the once schedule is done.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await runsOf(id)).length).toBe(1);
  }, 90_000);
});
