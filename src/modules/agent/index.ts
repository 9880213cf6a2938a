/**
 * The monitoring agent: per-server tokens, heartbeats (`/api/agent`, public but token-checked),
 * the install script, and installing it over SSH (`/api/servers/{id}/agent-token`, `/install-agent`).
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { AlertEngine } from '../alerts/index.js';
import type { AgentServerStore, ServersService } from '../servers/index.js';
import { AgentInstaller } from './agent-installer.service.js';
import { agentMetricsRoutes } from './agent-metrics.routes.js';
import { agentServerRoutes } from './agent-servers.routes.js';
import { HeartbeatPoints } from './heartbeat-points.js';
import { HeartbeatPointsRepository } from './heartbeat-points.repository.js';
import { agentRoutes } from './agent.routes.js';
import { AgentService } from './agent.service.js';
import type { Metrics } from '../../platform/metrics/metrics.js';

export type { AgentInstaller, AgentService };

export interface AgentModuleDeps {
  db: Kysely<Database>;
  metrics?: Pick<Metrics, 'heartbeat'>;
  cache: Cache;
  engine: AlertEngine;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  /** The servers module's agent columns: only that module writes `servers`. */
  agentColumns: AgentServerStore;
  ssh: Pick<SshPool, 'exec'>;
  settings: RuntimeSettings;
  audit: AuditService;
  log: Logger;
  now: () => number;
}

export function createAgentModule(d: AgentModuleDeps) {
  const points = new HeartbeatPoints(new HeartbeatPointsRepository(d.db), d.log, d.now);
  const agent = new AgentService({
    repo: d.agentColumns, points, cache: d.cache, engine: d.engine, servers: d.servers, audit: d.audit, log: d.log, now: d.now, metrics: d.metrics,
  });
  const installer = new AgentInstaller({ agent, servers: d.servers, ssh: d.ssh, settings: d.settings, audit: d.audit, log: d.log });
  const feature: Feature = {
    name: 'agent',
    routes: [mount('/api/agent', agentRoutes, { agent }), mount('/api/agent', agentMetricsRoutes, { points }), mount('/api/servers', agentServerRoutes, { agent, installer })],
    perProcess: { start: () => agent.start(), stop: () => agent.stop() },
  };
  return { agent, installer, feature };
}
