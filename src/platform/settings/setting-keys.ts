/**
 * Which setting keys exist and what each accepts: the PUT whitelist, the immutable and
 * sensitive keys, the validators and the defaults GET falls back to.
 */

export const IMMUTABLE_KEYS = ['secret_key', 'api_key', 'encryption_key', 'database_url'] as const;

export const SENSITIVE_KEYS = new Set<string>([
  'secret_key',
  'api_key',
  'encryption_key',
  'messenger_bot_token',
  'messenger_offline_bot_token',
]);

/** Sensitive keys whose value lives in the settings table, encrypted with the cipher. */
export const ENCRYPTED_KEYS = new Set<string>(['api_key', 'messenger_bot_token', 'messenger_offline_bot_token']);

export const MUTABLE_KEYS = new Set<string>([
  'system_name',
  'system_title',
  'db_pool_size',
  'db_max_overflow',
  'heartbeat_timeout',
  'cache_url',
  'api_base_url',
  'cpu_alert_threshold',
  'mem_alert_threshold',
  'disk_alert_threshold',
  'messenger_bot_token',
  'messenger_chat_id',
  'messenger_offline_bot_token',
  'messenger_offline_chat_id',
  'login_allowlist_enabled',
  'login_subscription_url',
  'login_subscription_ips',
  'login_manual_ips',
  'login_allowed_ips',
  'session_max_age_days',
  'credential_reauth',
  'notify_alert_cpu',
  'notify_alert_mem',
  'notify_alert_disk',
  'notify_alert_offline',
  'notify_recovery',
  'notify_time_drift',
  'notify_system_cache',
  'notify_system_db',
  'notify_restart',
  'notify_script_complete',
  'script_exec_complete_sound',
  'push_complete_sound',
  'editor_theme',
  'theme',
  'ssh_probe_interval',
]);

/** Integer settings: `min`..`max`, or also 0 where `zeroOff` (0 switches the feature off). */
export const INTEGER_RULES: Record<string, { min: number; max: number; zeroOff?: true }> = {
  db_pool_size: { min: 1, max: 1000 },
  db_max_overflow: { min: 1, max: 1000 },
  heartbeat_timeout: { min: 10, max: 600 },
  cpu_alert_threshold: { min: 1, max: 100 },
  mem_alert_threshold: { min: 1, max: 100 },
  disk_alert_threshold: { min: 1, max: 100 },
  session_max_age_days: { min: 1, max: 365 },
  // Seconds between SSH probes of servers without a recent heartbeat.
  ssh_probe_interval: { min: 30, max: 86_400, zeroOff: true },
};

const SOUNDS = ['off', 'beep_short', 'beep_double', 'chime_soft'];

export const ENUM_RULES: Record<string, string[]> = {
  script_exec_complete_sound: SOUNDS,
  push_complete_sound: SOUNDS,
  theme: ['dark', 'light'],
  credential_reauth: ['true', 'false'],
};

export const DEFAULTS: Record<string, string> = {
  script_exec_complete_sound: 'beep_double',
  push_complete_sound: 'beep_double',
  theme: 'dark',
  session_max_age_days: '30',
  credential_reauth: 'false',
  ssh_probe_interval: '0',
};

/** Keys whose change is mirrored into the host patrol script's env file (a failure there is only logged). */
export const PATROL_ENV_KEYS = new Set<string>(['messenger_bot_token', 'messenger_chat_id']);

export function isImmutable(key: string): boolean {
  return (IMMUTABLE_KEYS as readonly string[]).includes(key);
}
