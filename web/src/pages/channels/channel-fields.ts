/**
 * The form of a channel type, read from its JSON schema (`GET /api/notification-channels/types`):
 * each property becomes one input by its shape (choice, number, list, headers, text), secret fields
 * become password inputs. Values go back as a config patch: a blank secret on edit is left out (the
 * stored one stays, a removed one is sent as `null`); a blank optional field on edit is sent as
 * `null` (cleared).
 */
import type { ChannelTypeInfo } from '../../api/resources/channels';

export type FieldKind = 'text' | 'textarea' | 'password' | 'select' | 'number' | 'list' | 'headers';
/** `null`: an optional secret the admin chose to remove. */
export type FieldValue = string | number | string[] | null;

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
  options?: string[];
}

interface PropSchema {
  type?: string;
  anyOf?: Array<{ const?: string }>;
  maxLength?: number;
}

/** Longer than any URL (2048): a template or other free text, edited in a text area. */
const LONG_TEXT = 4096;

export function fieldsOf(info: ChannelTypeInfo): FieldSpec[] {
  const schema = info.schema as { properties?: Record<string, PropSchema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const spec = { name, required: required.has(name) };
    if (info.secret_fields.includes(name)) return { ...spec, kind: 'password' };
    if (p.anyOf?.every((o) => typeof o.const === 'string')) return { ...spec, kind: 'select', options: p.anyOf.map((o) => o.const as string) };
    if (p.type === 'integer' || p.type === 'number') return { ...spec, kind: 'number' };
    if (p.type === 'array') return { ...spec, kind: 'list' };
    if (p.type === 'object') return { ...spec, kind: 'headers' };
    return { ...spec, kind: (p.maxLength ?? 0) > LONG_TEXT ? 'textarea' : 'text' };
  });
}

/** The form's starting values: the stored config (secrets start blank; the service masks them anyway). */
export function initialValues(fields: FieldSpec[], config: Record<string, unknown> | undefined): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of fields) {
    const v = config?.[f.name];
    if (f.kind === 'password') out[f.name] = '';
    else if (f.kind === 'list') out[f.name] = Array.isArray(v) ? v.map(String) : [];
    else if (f.kind === 'headers') out[f.name] = v && typeof v === 'object' ? Object.entries(v).map(([k, x]) => `${k}: ${String(x)}`).join('\n') : '';
    else if (f.kind === 'number') out[f.name] = typeof v === 'number' ? v : '';
    else out[f.name] = typeof v === 'string' ? v : f.kind === 'select' && f.required ? (f.options?.[0] ?? '') : '';
  }
  return out;
}

function headers(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The config to send: on create blanks are left out; on edit they clear, except secrets, which stay. */
export function configPatch(fields: FieldSpec[], values: Record<string, FieldValue>, editing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === null) {
      if (editing) out[f.name] = null;
      continue;
    }
    let value: unknown = v;
    if (f.kind === 'headers') value = String(v).trim() ? headers(String(v)) : '';
    const blank = value === '' || (Array.isArray(value) && value.length === 0);
    if (!blank) out[f.name] = typeof value === 'string' && f.kind !== 'password' && f.kind !== 'textarea' ? value.trim() : value;
    else if (editing && f.kind !== 'password') out[f.name] = null;
  }
  return out;
}
