/**
 * The fleet: server records, their credentials (inline or from a preset), trust-on-first-use host
 * keys, and `/api/servers`. `servers.getTarget(id)` is how every remote feature reaches a server.
 */
import type { Kysely } from 'kysely';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Cipher } from '../../core/crypto.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { FleetQueryRepository } from './fleet-query.repository.js';
import { fleetQueryRoutes } from './fleet-query.routes.js';
import { FleetQueryService } from './fleet-query.service.js';
import { ServersRepository } from './servers.repository.js';
import { serversRoutes } from './servers.routes.js';
import { ServersService, type ServersDeps } from './servers.service.js';
import type { PresetSources } from './servers.targets.js';

export type { FleetQueryService, ServersService };

export interface ServersModuleDeps extends PresetSources, Pick<ServersDeps, 'settings' | 'requireCurrentPassword'> {
  db: Kysely<Database>;
  cipher: Cipher;
  audit: AuditService;
  ssh: Pick<SshPool, 'exec' | 'forget'>;
  log: Logger;
}

export function createServersModule(d: ServersModuleDeps) {
  const servers = new ServersService({
    repo: new ServersRepository(d.db),
    passwordPresets: d.passwordPresets,
    sshKeyPresets: d.sshKeyPresets,
    cipher: d.cipher,
    audit: d.audit,
    ssh: d.ssh,
    log: d.log,
    settings: d.settings,
    requireCurrentPassword: d.requireCurrentPassword,
  });
  const fleet = new FleetQueryService(new FleetQueryRepository(d.db));
  const feature: Feature = {
    name: 'servers',
    routes: [mount('/api/servers', fleetQueryRoutes, { fleet }), mount('/api/servers', serversRoutes, { servers })],
  };
  return { servers, fleet, feature };
}
