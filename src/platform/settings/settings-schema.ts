/**
 * `GET /api/settings/schema`: every key's rule, group and limits, built from the very tables PUT
 * validates with (setting-keys.ts), so that the console checks a value before sending it by the
 * service's own limits instead of a copy of them.
 */
import {
  DEFAULTS,
  ENUM_RULES,
  IMMUTABLE_KEYS,
  INTEGER_RULES,
  MUTABLE_KEYS,
  SENSITIVE_KEYS,
  SETTING_GROUPS,
  SWITCH_KEYS,
  guardsAccess,
  isImmutable,
  settingGroup,
} from './setting-keys.js';
import { SETTING_VALUE_MAX_LENGTH, type SettingDescriptor, type SettingsSchemaResponse } from './settings.schemas.js';

function rule(key: string): SettingDescriptor['schema'] {
  const range = INTEGER_RULES[key];
  if (range) return { type: 'integer', minimum: range.min, maximum: range.max, ...(range.zeroOff ? { zero_off: true } : {}) };
  const allowed = ENUM_RULES[key];
  if (allowed) return { type: 'string', enum: [...allowed] };
  if (SWITCH_KEYS[key]) return { type: 'boolean' };
  return { type: 'string', max_length: SETTING_VALUE_MAX_LENGTH };
}

export function describeSetting(key: string): SettingDescriptor {
  const sw = SWITCH_KEYS[key];
  return {
    key,
    group: settingGroup(key) ?? 'general',
    schema: rule(key),
    secret: SENSITIVE_KEYS.has(key),
    immutable: isImmutable(key),
    api_key_may_change: !isImmutable(key) && !guardsAccess(key),
    default: DEFAULTS[key] ?? null,
    ...(sw ? { unset_means: sw.unsetMeans } : {}),
  };
}

export function settingsSchema(): SettingsSchemaResponse {
  const keys = [...IMMUTABLE_KEYS, ...MUTABLE_KEYS];
  return { groups: [...SETTING_GROUPS], settings: keys.map(describeSetting) };
}
