/**
 * The fleet: server records, their credentials (inline or from a preset), trust-on-first-use host
 * keys, and `/api/servers`. `servers.connectionFor(id)` is how every remote feature reaches a server; other features read
 * servers as `ServerRecord` (no secret columns) and never write the table.
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
import { ServerStateRepository } from './server-state.repository.js';
import { SshProbe, type SshProbeDeps } from './ssh-probe.js';
import { SshReachability } from './ssh-reachability.js';
import { presetServersRoutes, presetUsageRoutes } from './preset-usage.routes.js';
import { PresetUsageRepository } from './preset-usage.repository.js';
import { PresetUsageService } from './preset-usage.service.js';
import { serversRoutes } from './servers.routes.js';
import { ServerTagsRepository } from './server-tags.repository.js';
import { serverTagsRoutes } from './server-tags.routes.js';
import { ServerTagsService } from './server-tags.service.js';
import { ServersService, type ServersDeps } from './servers.service.js';
import type { PresetSources } from './servers.targets.js';
import type { AgentServerStore, ServerStatusStore } from './server-state.repository.js';

export type { FleetQueryService, ServersService, SshProbe, SshReachability };
export type { AgentServerStore, MonitoredServer, ServerStatusStore } from './server-state.repository.js';
export type { ServerRecord } from './servers.repository.js';
/** The tag rules, for modules that name server tags (notification channels). */
export { tagName } from './server-tags.service.js';
export { normalizeTags } from './servers.input.js';

export interface ServersModuleDeps extends PresetSources, Pick<ServersDeps, 'requireCurrentPassword'> {
  settings: ServersDeps['settings'] & SshProbeDeps['settings'];
  db: Kysely<Database>;
  cipher: Cipher;
  audit: AuditService;
  ssh: Pick<SshPool, 'exec' | 'forget' | 'connect'>;
  log: Logger;
}

export function createServersModule(d: ServersModuleDeps) {
  const repo = new ServersRepository(d.db);
  // The SSH pool is built before this feature: it reports contacts through `reachability.record`.
  const reachability = new SshReachability({ repo, log: d.log });
  const servers = new ServersService({
    repo,
    passwordPresets: d.passwordPresets,
    sshKeyPresets: d.sshKeyPresets,
    cipher: d.cipher,
    audit: d.audit,
    ssh: d.ssh,
    reachability,
    log: d.log,
    settings: d.settings,
    requireCurrentPassword: d.requireCurrentPassword,
  });
  const fleet = new FleetQueryService(new FleetQueryRepository(d.db));
  const usage = new PresetUsageService(new PresetUsageRepository(d.db), { passwordPresets: d.passwordPresets, sshKeyPresets: d.sshKeyPresets });
  const probe = new SshProbe({ repo, targetFromRow: (row) => servers.targetFromRow(row), ssh: d.ssh, settings: d.settings, log: d.log });
  const feature: Feature = {
    name: 'servers',
    routes: [
      mount('/api/servers', fleetQueryRoutes, { fleet }),
      mount('/api/servers', serverTagsRoutes, { tagsService: new ServerTagsService(new ServerTagsRepository(d.db), d.audit) }),
      mount('/api/servers', presetUsageRoutes, { usage }),
      mount('/api/servers', serversRoutes, { servers }),
      // Which servers use a preset: served under the presets' paths, read from the servers table.
      mount('/api/presets', presetServersRoutes, { usage, kind: 'password' as const }),
      mount('/api/ssh-key-presets', presetServersRoutes, { usage, kind: 'ssh_key' as const }),
    ],
    perProcess: { start() {}, stop: () => reachability.flush() },
    background: { start: () => probe.start(), stop: () => probe.stop() },
  };
  // The monitoring columns, lent to the agent and alerts features as narrow ports.
  const state = new ServerStateRepository(d.db);
  return { servers, fleet, reachability, probe, feature, agentColumns: state as AgentServerStore, serverStatus: state as ServerStatusStore };
}
