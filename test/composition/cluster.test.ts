/**
 * WORKERS=2 as production runs it: the real entry point, a primary and two forked workers, on
 * PostgreSQL and Redis. Work left `running` by an earlier process is recovered at start, and the
 * batch of a worker killed with SIGKILL mid-push is closed (its server failed with a retry job)
 * within the lease time while the cluster keeps serving.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { childPids, freePort, parentPid, pidsWithArg, ProcessScope, waitHealthy } from '../helpers/service-process.js';
import { createPostgresDatabase, uniqueSuffix, type TempDatabase } from '../helpers/targets.js';
import { remoteDir, rmrf, stagingDir, until } from '../modules/push/push-helpers.js';

const CLUSTER = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_CACHE_URL);
if (!CLUSTER) {
  // Not silent: the run says why these tests did not run.
  console.warn('cluster tests skipped: they need TEST_DATABASE_URL (PostgreSQL) and TEST_CACHE_URL (Redis), as .ci/run sets');
}

const PASSWORD = 'cluster-admin-pw-1';

describe.runIf(CLUSTER)('WORKERS=2 on PostgreSQL + Redis', () => {
  const scope = new ProcessScope();
  let pgdb: TempDatabase;
  afterEach(() => scope.cleanup());
  beforeAll(async () => {
    pgdb = await createPostgresDatabase();
  });
  afterAll(async () => {
    await pgdb?.drop();
  });

  async function startCluster(dataDir: string) {
    const port = await freePort();
    const p = scope.start({
      DATA_DIR: dataDir,
      PORT: String(port),
      WORKERS: '2',
      DATABASE_URL: pgdb.url,
      CACHE_URL: process.env.TEST_CACHE_URL!,
      CACHE_PREFIX: `${process.env.TEST_CACHE_PREFIX ?? 'test:'}cluster:${uniqueSuffix()}:`,
      ADMIN_PASSWORD: PASSWORD,
    });
    await waitHealthy(port, 40_000);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      // biome-ignore lint/suspicious/noExplicitAny: the answers of many endpoints, checked by matchers
      return { status: res.status, json: (await res.json().catch(() => null)) as any };
    };
    return { p, base, api };
  }

  it('recovers a batch and a retry job that an earlier process left running', async () => {
    const handle = createDatabase(pgdb.url);
    await migrateToLatest(handle.db);
    const batchId = `left_${randomUUID().slice(0, 8)}`;
    const now = new Date().toISOString();
    await handle.db
      .insertInto('push_batches')
      .values({
        batch_id: batchId, status: 'running', operator: 'admin', source_path: '/tmp/svc_upload_gone', target_path: '/srv/x',
        sync_mode: 'incremental', started_at: now, finished_at: null, total: 2, succeeded: 1, failed: 0, skipped: 0,
        lease_owner: 'old-host:1:dead', lease_expires_at: new Date(Date.now() - 5_000).toISOString(),
      })
      .execute();
    await handle.db
      .insertInto('push_results')
      .values([
        { batch_id: batchId, server_id: 900001, server_name: 'done', status: 'success', files_transferred: 1, bytes_transferred: 1, duration_ms: 1, error: null, retry_job_id: null },
        { batch_id: batchId, server_id: 900002, server_name: 'mid', status: 'running', files_transferred: 0, bytes_transferred: 0, duration_ms: 0, error: null, retry_job_id: null },
      ])
      .execute();
    const job = await handle.db
      .insertInto('retry_jobs')
      .values({
        server_id: 900003, server_name: 'r', operator: 'admin', source_path: '/tmp/svc_upload_gone', target_path: '/srv/x',
        sync_mode: 'incremental', batch_id: null, status: 'running', retry_count: 1, max_retries: 3,
        // Not due for an hour, so the cluster's retry sweep leaves it pending once re-queued.
        next_retry_at: new Date(Date.now() + 3_600_000).toISOString(), last_error: 'x', created_at: now, updated_at: now,
        lease_owner: 'old-host:1:dead', lease_expires_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.destroy();

    const { api } = await startCluster(scope.tempDir());
    const batch = await until(async () => {
      const b = (await api('GET', `/api/sync/batches/${batchId}`)).json;
      return b?.status !== 'running' && b;
    }, 20_000, 250);
    expect(batch).toMatchObject({ status: 'partial', succeeded: 1, failed: 1 });
    expect(batch.results[1]).toMatchObject({ status: 'failed', error: 'interrupted by a service restart', retry_job_id: expect.any(Number) });
    const jobs = (await api('GET', '/api/retries')).json as Array<{ id: number; status: string; retry_count: number; server_id: number }>;
    expect(jobs.find((j) => j.id === Number(job.id))).toMatchObject({ status: 'pending', retry_count: 1 });
    expect(jobs.find((j) => j.id === batch.results[1].retry_job_id)).toMatchObject({ status: 'pending', server_id: 900002 });
  }, 90_000);

  it('a worker killed with SIGKILL mid-push: its batch is closed within the lease time, the cluster keeps serving', async () => {
    const sshd = inject('sshd');
    const src = stagingDir({ 'small.txt': 'small\n' });
    const dest = remoteDir(sshd, 'sigkill');
    // A large sparse file keeps rsync busy long enough to kill the worker that runs it.
    const fd = fs.openSync(path.join(src, 'big.bin'), 'w');
    fs.ftruncateSync(fd, 512 * 1024 * 1024);
    fs.closeSync(fd);
    try {
      const { p, api } = await startCluster(scope.tempDir());
      const server = await api('POST', '/api/servers', {
        name: `kill-${randomUUID().slice(0, 6)}`, host: sshd.host, port: sshd.port, username: sshd.username,
        private_key: sshd.privateKey, target_path: dest,
      });
      expect(server.status).toBe(201);
      // A retry job a crashed process was running: its lease runs out two seconds from now.
      const handle = createDatabase(pgdb.url);
      const stamp = new Date().toISOString();
      const orphan = await handle.db
        .insertInto('retry_jobs')
        .values({
          server_id: server.json.id, server_name: 'orphan', operator: 'admin', source_path: src, target_path: dest,
          sync_mode: 'incremental', batch_id: null, status: 'running', retry_count: 0, max_retries: 3,
          // Not due again for an hour: once re-queued, the sweep leaves it pending.
          next_retry_at: new Date(Date.now() + 3_600_000).toISOString(), last_error: null, created_at: stamp, updated_at: stamp,
          lease_owner: 'crashed-host:7:gone', lease_expires_at: new Date(Date.now() + 2_000).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await handle.destroy();
      const batchId = `kill_${randomUUID().slice(0, 8)}`;
      const started = await api('POST', '/api/sync/files', { server_ids: [server.json.id], source_path: src, async: true, batch_id: batchId });
      expect(started.status).toBe(202);

      // tsx runs the service's node process (the primary) as its child; workers are the primary's.
      const [primary] = childPids(p.child.pid!);
      // The worker running the push is the parent of the spawn helper that started the rsync
      // reading this batch's source.
      const workerOf = (pid: number) => {
        try {
          return childPids(primary).find((w) => w === parentPid(parentPid(pid)));
        } catch {
          return undefined; // ended meanwhile
        }
      };
      const rsync = await until(async () => pidsWithArg(src).find((pid) => workerOf(pid) !== undefined), 20_000, 50);
      const worker = workerOf(rsync)!;
      process.kill(worker, 'SIGKILL');
      const killedAt = Date.now();
      try {
        process.kill(rsync, 'SIGKILL');
      } catch {
        // it may have ended with its worker
      }

      const batch = await until(async () => {
        const b = (await api('GET', `/api/sync/batches/${batchId}`).catch(() => null))?.json;
        return b && b.status !== 'running' && b;
      }, 60_000, 500);
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      expect(batch).toMatchObject({ status: 'failed', failed: 1 });
      expect(batch.results[0]).toMatchObject({ status: 'failed', error: 'interrupted by a service restart', retry_job_id: expect.any(Number) });
      const jobs = (await api('GET', '/api/retries')).json as Array<{ id: number; status: string }>;
      expect(jobs.find((j) => j.id === batch.results[0].retry_job_id)).toMatchObject({ status: 'pending' });
      // The patrol of the running cluster re-queued the orphaned job once its lease ran out.
      expect(jobs.find((j) => j.id === Number(orphan.id))).toMatchObject({ status: 'pending' });
      // The primary forked a new worker: two again, and the service still answers.
      await until(async () => childPids(primary).length === 2, 20_000, 200);
      expect((await api('GET', '/api/auth/me')).status).toBe(200);
    } finally {
      rmrf(src, dest);
    }
  }, 120_000);
});
