/**
 * Which setting keys exist and what each accepts: the PUT whitelist (with the keys that guard
 * access marked), the immutable and sensitive keys, the validators and the defaults GET falls back to.
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

const OPEN = { guardsAccess: false } as const;
const GUARDS_ACCESS = { guardsAccess: true } as const;

/**
 * Every key PUT accepts, each marked whether it guards access: a setting whose purpose is to keep
 * people out (re-authentication for credential changes, the login allowlist and its entries, the
 * session lifetime). The API key may not write those (403 `api_key_refused`): it would otherwise
 * lift the very protection that limits a stolen key or token; widening the allowlist weakens it
 * as much as turning it off. A new key must be marked here one way or the other.
 */
const WRITABLE: Record<string, { readonly guardsAccess: boolean }> = {
  system_name: OPEN,
  system_title: OPEN,
  db_pool_size: OPEN,
  db_max_overflow: OPEN,
  heartbeat_timeout: OPEN,
  cache_url: OPEN,
  api_base_url: OPEN,
  cpu_alert_threshold: OPEN,
  mem_alert_threshold: OPEN,
  disk_alert_threshold: OPEN,
  messenger_bot_token: OPEN,
  messenger_chat_id: OPEN,
  messenger_offline_bot_token: OPEN,
  messenger_offline_chat_id: OPEN,
  login_allowlist_enabled: GUARDS_ACCESS,
  login_subscription_url: GUARDS_ACCESS,
  login_subscription_ips: GUARDS_ACCESS,
  login_manual_ips: GUARDS_ACCESS,
  login_allowed_ips: GUARDS_ACCESS,
  session_max_age_days: GUARDS_ACCESS,
  credential_reauth: GUARDS_ACCESS,
  notify_alert_cpu: OPEN,
  notify_alert_mem: OPEN,
  notify_alert_disk: OPEN,
  notify_alert_offline: OPEN,
  notify_recovery: OPEN,
  notify_time_drift: OPEN,
  notify_system_cache: OPEN,
  notify_system_db: OPEN,
  notify_restart: OPEN,
  notify_script_complete: OPEN,
  script_exec_complete_sound: OPEN,
  push_complete_sound: OPEN,
  editor_theme: OPEN,
  theme: OPEN,
  zip_name_encoding: OPEN,
  ssh_probe_interval: OPEN,
};

export const MUTABLE_KEYS: ReadonlySet<string> = new Set(Object.keys(WRITABLE));

/** The settings that guard access (see WRITABLE); refused to the API key. */
export const ACCESS_GUARD_KEYS: ReadonlySet<string> = new Set(Object.keys(WRITABLE).filter((k) => WRITABLE[k].guardsAccess));

export function guardsAccess(key: string): boolean {
  return ACCESS_GUARD_KEYS.has(key);
}

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
  // How ZIP entry names not marked as UTF-8 are read; `gbk` reads with GB18030, its superset.
  zip_name_encoding: ['auto', 'gbk', 'cp437', 'utf-8'],
};

export const DEFAULTS: Record<string, string> = {
  script_exec_complete_sound: 'beep_double',
  push_complete_sound: 'beep_double',
  theme: 'dark',
  session_max_age_days: '30',
  credential_reauth: 'false',
  zip_name_encoding: 'auto',
  ssh_probe_interval: '0',
};

/** Keys whose change is mirrored into the host patrol script's env file (a failure there is only logged). */
export const PATROL_ENV_KEYS = new Set<string>(['messenger_bot_token', 'messenger_chat_id']);

export function isImmutable(key: string): boolean {
  return (IMMUTABLE_KEYS as readonly string[]).includes(key);
}
