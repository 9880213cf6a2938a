/**
 * Ops-patrol: readiness of the host patrol script, which runs from cron outside this service and
 * alerts through the messenger bot on its own (the "layer 3" path that still works when this
 * service or its database is down). Its credentials come from the env file this module writes.
 */
import type { Actor } from '../../core/actor.js';
import { BadRequestError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { SecretSettings } from '../../platform/settings/secret-settings.js';
import type { PatrolEnvFile } from './patrol-env.js';
import type { EnvStatus, PatrolStatus } from './patrol.schemas.js';

export const PATROL_SCRIPT_PATH = '/usr/local/bin/fleet-patrol.sh';
export const HEALTH_LOG_PATH = '/var/log/fleet-patrol/health.log';
export const CRON_INSTALL_COMMAND =
  `(crontab -l 2>/dev/null | grep -v fleet-patrol; echo "*/5 * * * * ${PATROL_SCRIPT_PATH} >> ${HEALTH_LOG_PATH} 2>&1") | crontab -`;

export interface PatrolServiceDeps {
  settings: RuntimeSettings;
  secrets: SecretSettings;
  envFile: PatrolEnvFile;
  audit: AuditService;
  log: Logger;
}

export class PatrolService {
  constructor(private readonly d: PatrolServiceDeps) {}

  private credentials(): { token: string | null; chatId: string | null } {
    return {
      token: this.d.secrets.readOrNull('messenger_bot_token')?.trim() || null,
      chatId: this.d.settings.get('messenger_chat_id')?.trim() || null,
    };
  }

  async status(): Promise<PatrolStatus> {
    const { token, chatId } = this.credentials();
    const configured = Boolean(token && chatId);
    const env = await this.d.envFile.status(token, chatId);
    return {
      messenger_app_configured: configured,
      messenger_layer3_ready: configured,
      messenger_env_synced: env.env_synced,
      env_status: env,
      db_fallback_enabled: true,
      cron_install_command: CRON_INSTALL_COMMAND,
      health_log_path: HEALTH_LOG_PATH,
    };
  }

  async syncMessenger(actor: Actor): Promise<{ synced: boolean; env_status: EnvStatus; messenger_layer3_ready: true }> {
    const { token, chatId } = this.credentials();
    if (!token || !chatId) throw new BadRequestError('Messenger bot token and chat id must both be configured', 'messenger_not_configured');
    let synced = true;
    try {
      await this.d.envFile.write(token, chatId);
    } catch (err) {
      synced = false;
      this.d.log.warn({ err }, 'could not write patrol env file');
    }
    const env = await this.d.envFile.status(token, chatId);
    await this.d.audit.record(actor, 'sync_patrol_messenger', { type: 'patrol', detail: `synced=${synced}` });
    return { synced: synced && env.env_synced, env_status: env, messenger_layer3_ready: true };
  }
}
