/**
 * Builds the push engine and the services around it once per process, for the container:
 * pushes create retry jobs, the retry worker re-runs rsync, schedules fire pushes and scripts.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { NotificationService } from '../../platform/notifications/notification.service.js';
import { RetriesRepository } from '../retries/retries.repository.js';
import { RetriesService } from '../retries/retries.service.js';
import { SchedulesRepository } from '../schedules/schedules.repository.js';
import { SchedulesService } from '../schedules/schedules.service.js';
import { ScriptsRepository } from '../scripts/scripts.repository.js';
import { ScriptsService } from '../scripts/scripts.service.js';
import type { ServersService } from '../servers/servers.service.js';
import { StagingPaths } from '../staging/staging-paths.js';
import { PushRepository } from './push.repository.js';
import { PushService } from './push.service.js';
import { RsyncRunner } from './rsync-runner.js';

export interface PushServicesDeps {
  db: Kysely<Database>;
  cache: Cache;
  ssh: SshPool;
  servers: ServersService;
  audit: AuditService;
  events: EventBus;
  notifications: NotificationService;
  log: Logger;
  stagingPrefix: string;
}

export interface PushServices {
  push: PushService;
  retries: RetriesService;
  scripts: ScriptsService;
  schedules: SchedulesService;
}

export function createPushServices(d: PushServicesDeps): PushServices {
  const staging = new StagingPaths(d.stagingPrefix);
  const runner = new RsyncRunner({
    hostKeys: d.ssh,
    pinHostKey: (id, fingerprint) => d.servers.pinHostKey(id, fingerprint),
    log: d.log,
  });
  const retries = new RetriesService({
    repo: new RetriesRepository(d.db),
    runner,
    servers: d.servers,
    staging,
    cache: d.cache,
    audit: d.audit,
    log: d.log,
  });
  const push = new PushService({
    repo: new PushRepository(d.db),
    runner,
    retries,
    servers: d.servers,
    staging,
    cache: d.cache,
    audit: d.audit,
    events: d.events,
    log: d.log,
  });
  const scripts = new ScriptsService({
    repo: new ScriptsRepository(d.db),
    ssh: d.ssh,
    servers: d.servers,
    audit: d.audit,
    events: d.events,
    notifications: d.notifications,
    log: d.log,
  });
  const schedules = new SchedulesService({
    repo: new SchedulesRepository(d.db),
    push,
    scripts,
    staging,
    audit: d.audit,
    log: d.log,
  });
  return { push, retries, scripts, schedules };
}
