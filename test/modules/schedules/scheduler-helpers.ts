/**
 * A Scheduler on a real, migrated database (SQLite file or a PostgreSQL URL) with a push that
 * only counts its calls: for tests of the scheduler's own decisions (which slot, how often, what
 * it records). The real push to a real sshd is covered by test/faults/database-outage-schedule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../src/core/logger.js';
import { createDatabase, type DatabaseHandle } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import type { ScheduleRow } from '../../../src/db/types.js';
import { ScheduleRunsRepository } from '../../../src/modules/schedules/schedule-runs.repository.js';
import { Scheduler, type SchedulerDeps } from '../../../src/modules/schedules/scheduler.js';
import { SchedulesRepository } from '../../../src/modules/schedules/schedules.repository.js';

export const quietLog: Logger = { info() {}, warn() {}, error() {}, debug() {}, child: () => quietLog };

export interface Harness {
  handle: DatabaseHandle;
  repo: SchedulesRepository;
  runs: ScheduleRunsRepository;
  /** One entry per push started (the schedule's source path). */
  pushes: string[];
  /** Scheduler passes so far (each reads the enabled schedules once). */
  passes(): number;
  scheduler(extra?: Partial<SchedulerDeps>): Scheduler;
  addSchedule(row: Partial<ScheduleRow> & { name: string }): Promise<ScheduleRow>;
  close(): Promise<void>;
}

export async function harness(url: string | null, onPush?: () => Promise<void>): Promise<Harness> {
  const dir = url ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'sched-'));
  const handle = createDatabase(url ?? `sqlite://${dir}/fleet.db`);
  await migrateToLatest(handle.db);
  const repo = new SchedulesRepository(handle.db);
  const runs = new ScheduleRunsRepository(handle.db);
  let passes = 0;
  const listEnabled = repo.listEnabled.bind(repo);
  repo.listEnabled = async () => {
    passes++;
    return listEnabled();
  };
  const pushes: string[] = [];
  const push: SchedulerDeps['push'] = {
    async start(_actor, req) {
      pushes.push(req.source_path);
      await onPush?.();
      return { async: true, batch_id: `b${pushes.length}` };
    },
  };
  const scripts = { get: async () => { throw new Error('no scripts here'); }, runOn: async () => { throw new Error('no scripts here'); } };
  return {
    handle, repo, runs, pushes,
    passes: () => passes,
    scheduler: (extra = {}) => new Scheduler({ repo, runs, push, scripts: scripts as unknown as SchedulerDeps['scripts'], log: quietLog, owner: 'test-owner', ...extra }),
    addSchedule: (row) =>
      repo.create({
        schedule_type: 'push', source_path: `/src/${row.name}`, target_path: null, server_ids: '[1]', run_mode: 'once', cron_expr: null,
        fire_at: null, sync_mode: 'incremental', enabled: 1, script_id: null, script_content: null, exec_timeout: 60, long_task: 0,
        last_run_at: null, created_at: '2000-01-01T00:00:00.000Z', ...row,
      }),
    async close() {
      await handle.destroy();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
