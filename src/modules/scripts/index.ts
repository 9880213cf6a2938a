/** Stored scripts and running them on servers over SSH (`/api/scripts`). */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { every, type Periodic } from '../../core/periodic.js';
import { mount, type Feature } from '../../platform/feature.js';
import { leaseLifecycle, leaseUntil } from '../../platform/leases.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import type { ServersService } from '../servers/index.js';
import { ScriptJournal } from './script-journal.js';
import { ScriptRunRecovery } from './script-recovery.js';
import { ScriptRunner } from './script-runner.js';
import { ScriptRunsRepository } from './script-runs.repository.js';
import { ScriptsRepository } from './scripts.repository.js';
import { scriptsRoutes } from './scripts.routes.js';
import { ScriptsService } from './scripts.service.js';

export type { ScriptsService };

export interface ScriptsModuleDeps {
  db: Kysely<Database>;
  ssh: Pick<SshPool, 'exec'>;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  audit: AuditService;
  events: Pick<EventBus, 'publish'>;
  notifications: Pick<NotificationService, 'notify'>;
  log: Logger;
  /** Lease plumbing: runs carry this process's lease, and a crashed process's runs are closed. */
  cache: Cache;
  owner: string;
}

const EVENTS_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export function createScriptsModule(d: ScriptsModuleDeps) {
  const runs = new ScriptRunsRepository(d.db);
  const journal = new ScriptJournal({ repo: runs, events: d.events, log: d.log });
  const runner = new ScriptRunner({ runs, journal, ssh: d.ssh, servers: d.servers, log: d.log, owner: d.owner });
  const recovery = new ScriptRunRecovery({ runs, log: d.log, owner: d.owner });
  const leases = leaseLifecycle({
    name: 'scripts',
    cache: d.cache,
    log: d.log,
    renew: () => recovery.renew(leaseUntil()),
    recover: () => recovery.recoverExpired(),
  });
  const scripts = new ScriptsService({ ...d, repo: new ScriptsRepository(d.db), runs, runner, journal });
  let pruning: Periodic | null = null;
  const feature: Feature = {
    name: 'scripts',
    routes: [mount('/api/scripts', scriptsRoutes, { scripts })],
    perProcess: leases.perProcess,
    onBoot: leases.onBoot,
    background: {
      async start() {
        await leases.background.start();
        // A run's messages replay its output for a week; after that its detail still has each server's tails.
        const prune = () => runs.deleteEventsOlderThan(new Date(Date.now() - EVENTS_RETENTION_MS).toISOString());
        pruning = every(PRUNE_EVERY_MS, prune, (err) => d.log.warn({ err }, 'script run messages prune failed'));
      },
      async stop() {
        await pruning?.stop();
        await leases.background.stop();
      },
    },
  };
  return { scripts, feature, recovery };
}
