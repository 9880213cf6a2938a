/**
 * The host patrol script's side (`/api/settings/ops-patrol...`): its readiness and the env file
 * (in DATA_DIR) through which it reads the default bot's credentials.
 */
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { SecretSettings } from '../../platform/settings/secret-settings.js';
import { PatrolEnvFile } from './patrol-env.js';
import { patrolRoutes } from './patrol.routes.js';
import { PatrolService } from './patrol.service.js';

export interface PatrolModuleDeps {
  dataDir: string;
  settings: RuntimeSettings;
  secrets: SecretSettings;
  audit: AuditService;
  log: Logger;
}

export function createPatrolModule(d: PatrolModuleDeps) {
  const envFile = new PatrolEnvFile(d.dataDir);
  const patrol = new PatrolService({ settings: d.settings, secrets: d.secrets, envFile, audit: d.audit, log: d.log });
  const feature: Feature = { name: 'patrol', routes: [mount('/api/settings', patrolRoutes, { patrol })] };
  /** Settings writes of the bot token or chat id mirror them into the env file. */
  const syncEnv = (token: string, chatId: string) => envFile.write(token, chatId);
  return { syncEnv, feature };
}
