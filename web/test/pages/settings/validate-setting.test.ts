/** The browser's check of a setting follows the rule the service serves, edge for edge. */
import { describe, expect, it } from 'vitest';
import type { SettingDescriptor } from '../../../src/api/resources/settings';
import { checkSettingValue, isSwitch, switchValue } from '../../../src/pages/settings/validate-setting';

const d = (key: string, schema: SettingDescriptor['schema'], extra: Partial<SettingDescriptor> = {}): SettingDescriptor => ({
  key,
  group: 'general',
  schema,
  secret: false,
  immutable: false,
  api_key_may_change: true,
  default: null,
  ...extra,
});

describe('checkSettingValue', () => {
  const timeout = d('heartbeat_timeout', { type: 'integer', minimum: 10, maximum: 600 });
  it('admits the edges of an integer range and refuses one beyond each', () => {
    expect(checkSettingValue(timeout, '10')).toBeNull();
    expect(checkSettingValue(timeout, ' 600 ')).toBeNull();
    expect(checkSettingValue(timeout, '9')).toEqual({ key: 'range', values: { min: 10, max: 600 } });
    expect(checkSettingValue(timeout, '601')).toEqual({ key: 'range', values: { min: 10, max: 600 } });
  });
  it('refuses what is not a whole number, and an empty value', () => {
    for (const v of ['12.5', 'abc', '1e3', '0x10']) expect(checkSettingValue(timeout, v)?.key).toBe('integer');
    expect(checkSettingValue(timeout, '  ')?.key).toBe('required');
  });
  it('admits 0 where the rule says 0 switches the feature off', () => {
    const probe = d('ssh_probe_interval', { type: 'integer', minimum: 30, maximum: 86400, zero_off: true });
    expect(checkSettingValue(probe, '0')).toBeNull();
    expect(checkSettingValue(probe, '29')).toEqual({ key: 'rangeOrZero', values: { min: 30, max: 86400 } });
  });
  it('admits only the values of an enum', () => {
    const theme = d('theme', { type: 'string', enum: ['dark', 'light'] });
    expect(checkSettingValue(theme, 'light')).toBeNull();
    expect(checkSettingValue(theme, 'blue')?.key).toBe('oneOf');
  });
  it('limits the length of text values', () => {
    const name = d('system_name', { type: 'string', max_length: 5 });
    expect(checkSettingValue(name, 'abcde')).toBeNull();
    expect(checkSettingValue(name, 'abcdef')).toEqual({ key: 'tooLong', values: { max: 5 } });
  });
});

describe('switches', () => {
  it('shows booleans and true/false enums as switches, unset per the key', () => {
    const notify = d('notify_recovery', { type: 'boolean' }, { unset_means: true });
    expect(isSwitch(notify)).toBe(true);
    expect(switchValue(notify, null)).toBe(true);
    expect(switchValue(notify, 'false')).toBe(false);
    expect(switchValue(notify, 'ON')).toBe(true);
    const reauth = d('credential_reauth', { type: 'string', enum: ['true', 'false'] }, { default: 'false' });
    expect(isSwitch(reauth)).toBe(true);
    expect(switchValue(reauth, undefined)).toBe(false);
    expect(isSwitch(d('theme', { type: 'string', enum: ['dark', 'light'] }))).toBe(false);
  });
});
