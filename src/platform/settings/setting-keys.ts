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

/** What a setting is for; the console groups its settings page by this. */
export const SETTING_GROUPS = ['general', 'appearance', 'monitoring', 'notifications', 'messenger', 'access', 'infrastructure', 'deployment'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/**
 * Every key PUT accepts, each marked whether it guards access: a setting whose purpose is to keep
 * people out (re-authentication for credential changes, the login allowlist and its entries, the
 * session lifetime). The API key may not write those (403 `api_key_refused`): it would otherwise
 * lift the very protection that limits a stolen key or token; widening the allowlist weakens it
 * as much as turning it off. A new key must be marked here one way or the other.
 */
const WRITABLE: Record<string, { readonly guardsAccess: boolean; readonly group: SettingGroup }> = {
  system_name: { ...OPEN, group: 'general' },
  system_title: { ...OPEN, group: 'general' },
  db_pool_size: { ...OPEN, group: 'infrastructure' },
  db_max_overflow: { ...OPEN, group: 'infrastructure' },
  heartbeat_timeout: { ...OPEN, group: 'monitoring' },
  cache_url: { ...OPEN, group: 'infrastructure' },
  api_base_url: { ...OPEN, group: 'general' },
  cpu_alert_threshold: { ...OPEN, group: 'monitoring' },
  mem_alert_threshold: { ...OPEN, group: 'monitoring' },
  disk_alert_threshold: { ...OPEN, group: 'monitoring' },
  messenger_bot_token: { ...OPEN, group: 'messenger' },
  messenger_chat_id: { ...OPEN, group: 'messenger' },
  messenger_offline_bot_token: { ...OPEN, group: 'messenger' },
  messenger_offline_chat_id: { ...OPEN, group: 'messenger' },
  login_allowlist_enabled: { ...GUARDS_ACCESS, group: 'access' },
  login_subscription_url: { ...GUARDS_ACCESS, group: 'access' },
  login_subscription_ips: { ...GUARDS_ACCESS, group: 'access' },
  login_manual_ips: { ...GUARDS_ACCESS, group: 'access' },
  login_allowed_ips: { ...GUARDS_ACCESS, group: 'access' },
  session_max_age_days: { ...GUARDS_ACCESS, group: 'access' },
  credential_reauth: { ...GUARDS_ACCESS, group: 'access' },
  // Channel URLs on private or loopback addresses (internal chat servers) are refused unless on;
  // it guards access because turning it on lets the service be aimed at the internal network.
  notify_allow_private_targets: { ...GUARDS_ACCESS, group: 'notifications' },
  // The language notifications are written in (en or zh-CN), on every channel.
  notify_language: { ...OPEN, group: 'notifications' },
  notify_push_failed: { ...OPEN, group: 'notifications' },
  notify_alert_cpu: { ...OPEN, group: 'notifications' },
  notify_alert_mem: { ...OPEN, group: 'notifications' },
  notify_alert_disk: { ...OPEN, group: 'notifications' },
  notify_alert_offline: { ...OPEN, group: 'notifications' },
  notify_recovery: { ...OPEN, group: 'notifications' },
  notify_time_drift: { ...OPEN, group: 'notifications' },
  notify_system_cache: { ...OPEN, group: 'notifications' },
  notify_system_db: { ...OPEN, group: 'notifications' },
  notify_restart: { ...OPEN, group: 'notifications' },
  notify_script_complete: { ...OPEN, group: 'notifications' },
  script_exec_complete_sound: { ...OPEN, group: 'appearance' },
  push_complete_sound: { ...OPEN, group: 'appearance' },
  editor_theme: { ...OPEN, group: 'appearance' },
  theme: { ...OPEN, group: 'appearance' },
  zip_name_encoding: { ...OPEN, group: 'general' },
  ssh_probe_interval: { ...OPEN, group: 'monitoring' },
};

export const MUTABLE_KEYS: ReadonlySet<string> = new Set(Object.keys(WRITABLE));

/** The settings that guard access (see WRITABLE); refused to the API key. */
export const ACCESS_GUARD_KEYS: ReadonlySet<string> = new Set(Object.keys(WRITABLE).filter((k) => WRITABLE[k].guardsAccess));

export function guardsAccess(key: string): boolean {
  return ACCESS_GUARD_KEYS.has(key);
}

/** The group of a key (immutable keys are the deployment's); null for an unknown key. */
export function settingGroup(key: string): SettingGroup | null {
  if (isImmutable(key)) return 'deployment';
  return WRITABLE[key]?.group ?? null;
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
  notify_language: ['en', 'zh-CN'],
};

/**
 * Switches: read as on/off by `RuntimeSettings.getBool` (`true`, `1`, `yes`, `on`); written as
 * `true`/`false`. No PUT validator: any other text reads as off. `notify_*` read as on when unset.
 */
export const SWITCH_KEYS: Record<string, { unsetMeans: boolean }> = {
  login_allowlist_enabled: { unsetMeans: false },
  notify_alert_cpu: { unsetMeans: true },
  notify_alert_mem: { unsetMeans: true },
  notify_alert_disk: { unsetMeans: true },
  notify_alert_offline: { unsetMeans: true },
  notify_recovery: { unsetMeans: true },
  notify_time_drift: { unsetMeans: true },
  notify_system_cache: { unsetMeans: true },
  notify_system_db: { unsetMeans: true },
  notify_restart: { unsetMeans: true },
  notify_script_complete: { unsetMeans: true },
  notify_push_failed: { unsetMeans: true },
  notify_allow_private_targets: { unsetMeans: false },
};

export const DEFAULTS: Record<string, string> = {
  script_exec_complete_sound: 'beep_double',
  push_complete_sound: 'beep_double',
  theme: 'dark',
  session_max_age_days: '30',
  credential_reauth: 'false',
  zip_name_encoding: 'auto',
  ssh_probe_interval: '0',
  notify_language: 'en',
};

/** Keys whose change is mirrored into the host patrol script's env file (a failure there is only logged). */
export const PATROL_ENV_KEYS = new Set<string>(['messenger_bot_token', 'messenger_chat_id']);

export function isImmutable(key: string): boolean {
  return (IMMUTABLE_KEYS as readonly string[]).includes(key);
}
