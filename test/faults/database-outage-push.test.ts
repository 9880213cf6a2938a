/**
 * PostgreSQL goes away for a few seconds while a push to 8 servers runs (every connection cut and
 * new ones refused, as during a restart, through a proxy in front of the real server). rsync does
 * not need the database: the transfers go on, the results written while it is away are written
 * once it is back, and the batch ends as it would have without the outage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { HAS_POSTGRES, type PostgresBehindProxy, postgresBehindProxy } from '../helpers/postgres-proxy.js';
import type { TcpProxy } from '../helpers/tcp-proxy.js';
import { addServer, bigSource, caller, remoteDir, rmrf, until, writingBig } from '../modules/push/push-helpers.js';

const shared = inject('sshd');

describe.runIf(HAS_POSTGRES)('a PostgreSQL outage during a push', () => {
  let pg: PostgresBehindProxy;
  let proxy: TcpProxy;
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];

  beforeAll(async () => {
    pg = await postgresBehindProxy();
    proxy = pg.proxy;
    t = await makeTestApp({ env: { DATABASE_URL: pg.url } });
  });
  afterAll(async () => {
    await t?.close();
    await pg?.close();
    rmrf(...cleanup);
  });

  it('fails nothing: results written while it was away are written when it is back; no retry job', async () => {
    const src = bigSource(96);
    cleanup.push(src);
    const targets: string[] = [];
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const dir = remoteDir(shared, `outage-${i}`);
      cleanup.push(dir);
      targets.push(dir);
      ids.push(await addServer(call, shared, `outage-${i}`, { target_path: dir }));
    }
    const batchId = `outage_${randomUUID().slice(0, 8)}`;
    const res = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, async: true, batch_id: batchId, concurrency: 8 });
    expect(res.statusCode).toBe(202);

    // The database goes away while the files are on their way...
    expect(await writingBig(targets, 30_000)).toBe(true);
    proxy.down();
    try {
      // ...and stays away until a transfer has finished, so its result is written during the outage.
      await until(async () => targets.some((d) => fs.existsSync(path.join(d, 'big.bin'))), 60_000);
      await new Promise((r) => setTimeout(r, 1_500));
      const health = await t.app.inject({ url: '/health' });
      expect(health.json()).toMatchObject({ db: 'error' });
    } finally {
      proxy.up();
    }

    await t.app.services.push.waitFor(batchId);
    const b = (await call('GET', `/api/sync/batches/${batchId}`)).json();
    expect(b.results.map((r: { status: string; error: string | null }) => [r.status, r.error])).toEqual(ids.map(() => ['success', null]));
    expect(b).toMatchObject({ status: 'completed', succeeded: 8, failed: 0 });
    const jobs = (await call('GET', '/api/retries')).json().filter((j: { server_id: number }) => ids.includes(j.server_id));
    expect(jobs).toEqual([]);
    expect((await t.app.inject({ url: '/health' })).json()).toMatchObject({ db: 'ok' });
  }, 180_000);
});
