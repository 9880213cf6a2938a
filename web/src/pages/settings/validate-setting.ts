/**
 * A value checked in the browser by the rule the service serves for its key
 * (`GET /api/settings/schema`): the same limits PUT applies, so a refused value never leaves the
 * browser, and one that passes here is stored. Answers the translation key of the problem.
 */
import type { SettingDescriptor } from '../../api/resources/settings';

export interface SettingProblem {
  /** Under `settings.problems.` */
  key: 'required' | 'integer' | 'range' | 'rangeOrZero' | 'oneOf' | 'tooLong';
  values?: Record<string, string | number>;
}

export function checkSettingValue(d: SettingDescriptor, raw: string): SettingProblem | null {
  const rule = d.schema;
  const value = raw.trim();
  if (rule.type === 'integer') {
    if (value === '') return { key: 'required' };
    if (!/^[+-]?\d+$/.test(value)) return { key: 'integer' };
    const n = Number(value);
    if (rule.zero_off && n === 0) return null;
    const min = rule.minimum ?? Number.MIN_SAFE_INTEGER;
    const max = rule.maximum ?? Number.MAX_SAFE_INTEGER;
    if (n < min || n > max) return { key: rule.zero_off ? 'rangeOrZero' : 'range', values: { min, max } };
    return null;
  }
  if (rule.enum) {
    if (!rule.enum.includes(value)) return { key: 'oneOf', values: { values: rule.enum.join(', ') } };
    return null;
  }
  if (d.secret && value === '') return { key: 'required' };
  if (rule.max_length !== undefined && raw.length > rule.max_length) return { key: 'tooLong', values: { max: rule.max_length } };
  return null;
}

/** An enum of exactly `true`/`false` is shown as a switch, like the boolean keys. */
export function isSwitch(d: SettingDescriptor): boolean {
  if (d.schema.type === 'boolean') return true;
  const e = d.schema.enum;
  return e !== undefined && e.length === 2 && e.includes('true') && e.includes('false');
}

/** What a switch shows for a stored value: on for `true`, `1`, `yes`, `on`; unset per the key. */
export function switchValue(d: SettingDescriptor, stored: string | null | undefined): boolean {
  const v = (stored ?? '').trim().toLowerCase();
  if (v === '') return d.unset_means ?? d.default === 'true';
  return ['true', '1', 'yes', 'on'].includes(v);
}
