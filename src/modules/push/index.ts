/**
 * The push engine and its routes under `/api/sync` (files, preview, cancel, batches and their
 * replayable live messages). Batches carry leases: renewed while this process runs them,
 * recovered by any process once they expire.
 */
import type { Notify } from './push-notice.js';
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { RsyncRunner } from '../../adapters/rsync/index.js';
import type { Logger } from '../../core/logger.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { mount, type Feature } from '../../platform/feature.js';
import { leaseLifecycle } from '../../platform/leases.js';
import type { RetriesService } from '../retries/index.js';
import type { ServersService } from '../servers/index.js';
import type { StagingPaths } from '../staging/index.js';
import { PushEventsRepository } from './push-events.repository.js';
import { PushJournal } from './push-journal.js';
import { PushRepository } from './push.repository.js';
import { pushRoutes } from './push.routes.js';
import { PushService } from './push.service.js';
import { TargetClaims } from './target-claims.js';
import { TargetClaimsRepository } from './target-claims.repository.js';

export type { PushService, TargetClaims };

/**
 * The claims on remote directories (see target-claims.ts), built before the push and retries
 * features because both write targets and must see each other's claims.
 */
export function createTargetClaims(db: Kysely<Database>, owner: string): TargetClaims {
  return new TargetClaims({ repo: new TargetClaimsRepository(db), owner });
}

export interface PushModuleDeps {
  db: Kysely<Database>;
  cache: Cache;
  runner: RsyncRunner;
  retries: Pick<RetriesService, 'createForFailure' | 'resolveBySuccess'>;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  staging: StagingPaths;
  audit: AuditService;
  events: Pick<EventBus, 'publish'>;
  log: Logger;
  owner: string;
  claims: TargetClaims;
  /** Queues a notification (push_failed). */
  notify?: Notify;
}

/** Replayable messages older than the retention are dropped once an hour. */
const JOURNAL_PRUNE_MS = 3600_000;

export function createPushModule(d: PushModuleDeps) {
  const journal = new PushJournal({ repo: new PushEventsRepository(d.db), events: d.events, log: d.log });
  const push = new PushService({ ...d, repo: new PushRepository(d.db), journal });
  let pruning: Periodic | null = null;
  const leases = leaseLifecycle({
    name: 'push',
    cache: d.cache,
    log: d.log,
    renew: () => push.renewLeases(),
    recover: () => push.recoverExpired(),
  });
  const feature: Feature = {
    name: 'push',
    routes: [mount('/api/sync', pushRoutes, { push })],
    onBoot: leases.onBoot,
    background: {
      async start() {
        await leases.background.start();
        pruning = every(JOURNAL_PRUNE_MS, () => journal.prune(), (err) => d.log.warn({ err }, 'push journal prune failed'));
      },
      async stop() {
        await pruning?.stop();
        await leases.background.stop();
      },
    },
    perProcess: {
      start: leases.perProcess.start,
      // Running rsyncs stop and their batches are written down before the leases stop renewing.
      async stop() {
        await push.shutdown();
        await leases.perProcess.stop();
      },
    },
  };
  return { push, feature };
}
