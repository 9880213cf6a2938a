/**
 * Every feature module, registered by `buildApp` in this order. A module is a Fastify plugin that
 * receives the container; add new modules here with their URL prefix.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../container.js';
import { adminsRoutes } from './admins/admins.routes.js';
import { auditRoutes } from '../platform/audit/audit.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { eventsRoutes } from '../platform/events/events.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { settingsRoutes } from '../platform/settings/settings.routes.js';
import { allowlistRoutes } from './allowlist/allowlist.routes.js';
import { messengerRoutes } from './messenger/messenger.routes.js';
import { wallpaperFilesRoutes, wallpapersRoutes } from './wallpapers/wallpapers.routes.js';
import { patrolRoutes } from './patrol/patrol.routes.js';
import { presetsRoutes } from './presets/presets.routes.js';
import { serversRoutes } from './servers/servers.routes.js';
import { sshKeyPresetsRoutes } from './ssh-key-presets/ssh-key-presets.routes.js';
import { stagingRoutes } from './staging/staging.routes.js';
import { remoteRoutes } from './remote/remote.routes.js';
import { pushRoutes } from './push/push.routes.js';
import { retriesRoutes } from './retries/retries.routes.js';
import { scriptsRoutes } from './scripts/scripts.routes.js';
import { schedulesRoutes } from './schedules/schedules.routes.js';
import { agentRoutes } from './agent/agent.routes.js';
import { agentServerRoutes } from './agent/agent-servers.routes.js';
import { alertHistoryRoutes } from './alerts/alert-history.routes.js';

export interface ModuleRegistration {
  plugin: FastifyPluginAsync<{ c: Container }>;
  prefix: string;
}

export const modules: ModuleRegistration[] = [
  { plugin: healthRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '' },
  { plugin: authRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/auth' },
  { plugin: adminsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/admins' },
  { plugin: auditRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/audit' },
  { plugin: serversRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/servers' },
  { plugin: presetsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/presets' },
  { plugin: sshKeyPresetsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/ssh-key-presets' },
  // Monitoring: the agent's public endpoints, its server-scoped actions and alert history.
  { plugin: agentRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/agent' },
  { plugin: agentServerRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/servers' },
  { plugin: alertHistoryRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/alert-history' },
  { plugin: eventsRoutes, prefix: '' },
  // Sync area: several plugins share /api/sync, each defining only its own paths.
  { plugin: stagingRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/sync' },
  { plugin: remoteRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/sync' },
  { plugin: pushRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/sync' },
  { plugin: retriesRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/retries' },
  { plugin: scriptsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/scripts' },
  { plugin: schedulesRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/schedules' },
  // Settings area: several plugins share /api/settings; their fixed paths win over /:key.
  { plugin: settingsRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/settings' },
  { plugin: allowlistRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/settings' },
  { plugin: messengerRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/settings' },
  { plugin: wallpapersRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/settings' },
  { plugin: patrolRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/api/settings' },
  { plugin: wallpaperFilesRoutes as FastifyPluginAsync<{ c: Container }>, prefix: '/app/wallpapers' },
];
