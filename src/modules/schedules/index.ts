/**
 * Push and script schedules (`/api/schedules`) and the scheduler loop that fires them: cron or
 * once, in Asia/Shanghai time, each due run claimed in the database so it runs exactly once.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { leaseLifecycle } from '../../platform/leases.js';
import type { PushService } from '../push/index.js';
import type { ScriptsService } from '../scripts/index.js';
import type { StagingPaths } from '../staging/index.js';
import { ScheduleRunsRepository } from './schedule-runs.repository.js';
import { SchedulesRepository } from './schedules.repository.js';
import { schedulesRoutes } from './schedules.routes.js';
import { SchedulesService } from './schedules.service.js';

export type { SchedulesService };

const SCHEDULER_TICK_MS = 2000;

export interface SchedulesModuleDeps {
  db: Kysely<Database>;
  push: Pick<PushService, 'start'>;
  scripts: Pick<ScriptsService, 'get' | 'runOn'>;
  staging: StagingPaths;
  audit: AuditService;
  log: Logger;
  /** Lease plumbing: runs carry this process's lease, and a crashed process's runs are closed. */
  cache: Cache;
  owner: string;
}

export function createSchedulesModule(d: SchedulesModuleDeps) {
  const schedules = new SchedulesService({ ...d, repo: new SchedulesRepository(d.db), runs: new ScheduleRunsRepository(d.db) });
  let stopLoop: (() => Promise<void>) | null = null;
  const leases = leaseLifecycle({
    name: 'schedules',
    cache: d.cache,
    log: d.log,
    renew: () => schedules.renewLeases(),
    recover: () => schedules.recoverExpired(),
  });
  const feature: Feature = {
    name: 'schedules',
    routes: [mount('/api/schedules', schedulesRoutes, { schedules })],
    perProcess: leases.perProcess,
    onBoot: leases.onBoot,
    background: {
      async start() {
        await leases.background.start();
        stopLoop = schedules.startLoop(SCHEDULER_TICK_MS);
      },
      async stop() {
        await stopLoop?.();
        await leases.background.stop();
      },
    },
  };
  return { schedules, feature };
}
