import { Type, type Static } from 'typebox';

export const EnvStatus = Type.Object({
  env_synced: Type.Boolean(),
  env_file: Type.String(),
  env_exists: Type.Boolean(),
  token_set: Type.Boolean(),
  chat_id_set: Type.Boolean(),
  updated_at: Type.Union([Type.String(), Type.Null()]),
});

export const PatrolStatus = Type.Object({
  messenger_app_configured: Type.Boolean(),
  messenger_layer3_ready: Type.Boolean(),
  messenger_env_synced: Type.Boolean(),
  env_status: EnvStatus,
  db_fallback_enabled: Type.Boolean(),
  cron_install_command: Type.String(),
  health_log_path: Type.String(),
});

export const SyncMessengerResult = Type.Object({ synced: Type.Boolean(), env_status: EnvStatus, messenger_layer3_ready: Type.Boolean() });

export type EnvStatus = Static<typeof EnvStatus>;
export type PatrolStatus = Static<typeof PatrolStatus>;
export type SyncMessengerResult = Static<typeof SyncMessengerResult>;
