/**
 * Retry jobs of failed pushes: `/api/retries`, the background sweep that runs due jobs, and the
 * leases that put a crashed process's running jobs back in the queue.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { RsyncRunner } from '../../adapters/rsync/index.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { leaseLifecycle } from '../../platform/leases.js';
import type { ServersService } from '../servers/index.js';
import type { StagingPaths } from '../staging/index.js';
import { RetriesRepository } from './retries.repository.js';
import { retriesRoutes } from './retries.routes.js';
import { RetriesService, type TargetGuard } from './retries.service.js';
import type { Metrics } from '../../platform/metrics/metrics.js';

export type { RetriesService };

/** How often the background worker looks for due jobs. */
const SWEEP_INTERVAL_MS = 5000;

export interface RetriesModuleDeps {
  db: Kysely<Database>;
  /** Counts the retry jobs recovered from a stopped process. */
  metrics?: Pick<Metrics, 'leasesRecovered'>;
  cache: Cache;
  runner: RsyncRunner;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  staging: StagingPaths;
  audit: AuditService;
  log: Logger;
  owner: string;
  claims: TargetGuard;
}

export function createRetriesModule(d: RetriesModuleDeps) {
  const retries = new RetriesService({ ...d, repo: new RetriesRepository(d.db) });
  const leases = leaseLifecycle({
    name: 'retries',
    cache: d.cache,
    log: d.log,
    renew: () => retries.renewLeases(),
    recover: async () => d.metrics?.leasesRecovered('retries', await retries.requeueExpired()),
  });
  let stopSweep: (() => Promise<void>) | null = null;
  const feature: Feature = {
    name: 'retries',
    routes: [mount('/api/retries', retriesRoutes, { retries })],
    onBoot: leases.onBoot,
    perProcess: {
      start: leases.perProcess.start,
      // The sweep in progress stops its rsyncs (attempts count as failed) before leases stop renewing.
      async stop() {
        await retries.shutdown();
        await leases.perProcess.stop();
      },
    },
    background: {
      async start() {
        await leases.background.start();
        stopSweep = retries.startWorker(SWEEP_INTERVAL_MS);
      },
      async stop() {
        await stopSweep?.();
        await leases.background.stop();
      },
    },
  };
  return { retries, feature };
}
