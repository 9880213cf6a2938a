/**
 * The service is killed with SIGKILL while a push batch, a one-shot push schedule's firing and a
 * script run are all under way, then started again on the same DATA_DIR and database (SQLite).
 *
 * After the restart, once the dead process's leases have expired (30 s after their last renewal)
 * the lease patrol recovers each: the batches' unfinished servers fail with a retry job each, the
 * script run's unfinished servers fail with the interruption reason, and the schedule's firing is
 * failed with its reason and still names its batch. The firing is not run again (a one-shot
 * claimed once stays claimed), and a one-shot that fell due while the service was down runs
 * exactly once after the restart: neither lost nor doubled.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { INTERRUPTED_ERROR } from '../../src/modules/scripts/script-recovery.js';
import { RUN_INTERRUPTED_ERROR } from '../../src/modules/schedules/scheduler.js';
import { RESTART_ERROR } from '../../src/modules/push/push.service.js';
import { bigSource, remoteDir, rmrf, until, writingBig } from '../modules/push/push-helpers.js';
import { CrashScope, restartBudgetMs, type Service } from './crash-helpers.js';
import { pidsWithArg } from '../helpers/service-process.js';

const sshd = inject('sshd');
const crash = new CrashScope();
const cleanup: string[] = [];
afterAll(() => {
  crash.cleanup();
  rmrf(...cleanup);
});

async function addServer(s: Service, name: string, target: string): Promise<number> {
  const res = await s.call('POST', '/api/servers', {
    name: `${name}-${path.basename(target)}`, host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey, target_path: target,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

describe('SIGKILL during a push, a schedule run and a script run', () => {
  it('after the restart: retry jobs for the batches, runs failed with their reason, each one-shot run exactly once', async () => {
    const dataDir = crash.tempDir();
    const env = { DATA_DIR: dataDir };
    const first = await crash.start(env);

    // Large enough that the push is still running once the schedule's run is under way (384 MiB
    // finished first once in CI after the remote watchdog got cheaper).
    const src = bigSource(1024);
    const [pushDir, schedDir, markerDir] = ['crash-push', 'crash-sched', 'crash-marker'].map((l) => remoteDir(sshd, l));
    cleanup.push(src, pushDir, schedDir, markerDir);
    const pushServer = await addServer(first, 'crash-push', pushDir);
    const schedServer = await addServer(first, 'crash-sched', schedDir);
    const scriptServer = await addServer(first, 'crash-script', markerDir);

    // A push batch and a one-shot push schedule (due at once: the scheduler ticks every 2 s).
    const batch = await first.call('POST', '/api/sync/files', { server_ids: [pushServer], source_path: src, async: true, batch_id: 'crash-batch' });
    expect(batch.status, JSON.stringify(batch.json)).toBe(202);
    const once = await first.call('POST', '/api/schedules', { name: 'crash once', source_path: src, server_ids: [schedServer], fire_at: '2000-01-01T00:00:00Z' });
    expect(once.status, JSON.stringify(once.json)).toBe(201);
    // A one-shot script schedule not due yet: it falls due while the service is down.
    const marker = path.join(markerDir, 'fired.txt');
    const later = await first.call('POST', '/api/schedules', {
      name: 'due while down', schedule_type: 'script', script_content: `mkdir -p '${markerDir}' && echo fired >> '${marker}'`, server_ids: [scriptServer],
      fire_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
    });
    expect(later.status, JSON.stringify(later.json)).toBe(201);
    // A script run that would take minutes.
    const script = await first.call('POST', '/api/scripts/run', { server_ids: [scriptServer], script_content: 'sleep 300', async: true });
    expect(script.status, JSON.stringify(script.json)).toBe(202);

    expect(await writingBig([pushDir, schedDir].map((d) => d), 45_000)).toBe(true);
    await until(async () => {
      const page = (await first.call('GET', `/api/schedules/${once.json.id}/runs`)).json;
      return page.items?.[0]?.status === 'running' && fs.existsSync(schedDir) && fs.readdirSync(schedDir).some((n) => n.startsWith('.big.bin.'));
    }, 30_000);
    await crash.kill(first);
    const killedAt = Date.now();
    // Its rsyncs (each in its own process group) die with it rather than go on writing to the
    // servers whose pushes the restarted service recovers.
    await until(async () => [pushDir, schedDir].every((d) => pidsWithArg(`:${d}`).length === 0), 10_000, 100);

    // While it is down, the second one-shot's time comes.
    const db = new Database(path.join(dataDir, 'fleet.db'));
    db.prepare('UPDATE schedules SET fire_at = ? WHERE id = ?').run(new Date(killedAt - 1000).toISOString(), later.json.id);
    db.close();

    const second = await crash.start(env);
    console.log(`SIGKILL during push + schedule + script: first start ${first.startMs} ms, restart healthy in ${second.startMs} ms`);
    expect(second.startMs).toBeLessThan(restartBudgetMs(first.startMs));

    // The one-shot due while down runs once, right after the restart (no lease to wait for).
    const laterRuns = await until(async () => {
      const page = (await second.call('GET', `/api/schedules/${later.json.id}/runs`)).json;
      return page.items?.[0] && page.items[0].status !== 'running' && page;
    }, 30_000, 200);
    expect(laterRuns.total).toBe(1);
    const laterRun = (await second.call('GET', `/api/scripts/runs/${laterRuns.items[0].run_id}`)).json;
    expect(laterRuns.items[0], JSON.stringify(laterRun)).toMatchObject({ status: 'completed' });

    // The leases of the killed process run out; the patrol recovers its work.
    const b = await until(async () => {
      const r = await second.call('GET', '/api/sync/batches/crash-batch');
      return r.json.status !== 'running' && r.json;
    }, 75_000, 500);
    console.log(`push batch recovered ${Date.now() - killedAt} ms after the SIGKILL`);
    expect(b.status).toBe('failed');
    expect(b.results).toEqual([expect.objectContaining({ server_id: pushServer, status: 'failed', error: RESTART_ERROR, retry_job_id: expect.any(Number) })]);

    const onceRuns = await until(async () => {
      const page = (await second.call('GET', `/api/schedules/${once.json.id}/runs`)).json;
      return page.items?.[0]?.status !== 'running' && page;
    }, 30_000, 500);
    expect(onceRuns.total).toBe(1);
    expect(onceRuns.items[0]).toMatchObject({ status: 'failed', error: RUN_INTERRUPTED_ERROR, batch_id: expect.any(String) });
    const schedBatch = (await second.call('GET', `/api/sync/batches/${onceRuns.items[0].batch_id}`)).json;
    expect(schedBatch.status).toBe('failed');
    expect(schedBatch.results).toEqual([expect.objectContaining({ server_id: schedServer, status: 'failed', retry_job_id: expect.any(Number) })]);
    const jobs = (await second.call('GET', '/api/retries')).json as Array<{ id: number; server_id: number }>;
    expect(jobs.map((j) => j.id)).toEqual(expect.arrayContaining([b.results[0].retry_job_id, schedBatch.results[0].retry_job_id]));

    const run = await until(async () => {
      const r = (await second.call('GET', `/api/scripts/runs/${script.json.run_id}`)).json;
      return r.status !== 'running' && r;
    }, 30_000, 500);
    expect(run).toMatchObject({ status: 'failed', failed: 1, finished_at: expect.any(String) });
    expect(run.servers).toEqual([expect.objectContaining({ server_id: scriptServer, status: 'failed', error: INTERRUPTED_ERROR })]);

    // Neither one-shot ran twice: each has its one run, is no longer enabled, and the script ran once.
    const list = (await second.call('GET', '/api/schedules')).json as Array<{ id: number; enabled: boolean; next_run: string | null }>;
    for (const id of [once.json.id, later.json.id]) expect(list.find((s) => s.id === id)).toMatchObject({ enabled: false, next_run: null });
    expect((await second.call('GET', `/api/schedules/${once.json.id}/runs`)).json.total).toBe(1);
    expect((await second.call('GET', `/api/schedules/${later.json.id}/runs`)).json.total).toBe(1);
    expect(fs.readFileSync(marker, 'utf8')).toBe('fired\n');
  }, 170_000);
});
