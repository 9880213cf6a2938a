/**
 * Turns the app's OpenAPI document into hostile requests: for every route, every integer or
 * number field (path, querystring, JSON body, at any depth, in every branch of a union) gets a
 * value beyond its range, and every string field a NUL character, while every other required
 * field gets a plausible value — so the bad field is the request's only fault.
 */

import { fillPath, routesOf, type OpenApiDoc, type Schema } from '../helpers/openapi.js';

export type { OpenApiDoc, Schema };

export type Kind = 'out-of-range' | 'nul';

export interface HostileCase {
  /** e.g. `PUT /api/servers/{id} body.ssh_key_preset_id out-of-range`: unique, stable, readable. */
  name: string;
  method: string;
  url: string;
  payload?: unknown;
  /** The field as the 422 names it (`params.id`, `querystring.limit`, `body.server_ids.0`). */
  field: string;
  kind: Kind;
}

/** PostgreSQL's `integer` ends at 2^31 - 1: the first value beyond it. */
export const BEYOND_INT4 = 2_147_483_648;
export const NUL_TEXT = 'a\u0000b';

/** One past the field's maximum, or past a 32-bit column when the schema names none. */
export function outOfRange(s: Schema): number {
  return s.maximum !== undefined ? Math.max(s.maximum + 1, BEYOND_INT4) : BEYOND_INT4;
}

function branches(s: Schema): Schema[] | null {
  const list = s.anyOf ?? s.oneOf;
  return list ? list.filter((b) => b.type !== 'null' && !(b.enum?.length === 1 && b.enum[0] === null)) : null;
}

function sampleString(s: Schema): string {
  if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
  if (s.format === 'date') return '2026-01-01';
  if (s.format === 'uri') return 'https://example.invalid/';
  if (s.format === 'email') return 'a@example.invalid';
  const base = 'a'.repeat(Math.max(s.minLength ?? 1, 1));
  if (!s.pattern) return base;
  const re = new RegExp(s.pattern);
  return [base, 'ssh-ed25519 AAAA', 'a1', '1', '10.0.0.1'].find((c) => re.test(c)) ?? base;
}

/** A plausible value: required properties only; ids that exist nowhere (nothing is touched). */
export function sample(s: Schema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alts = branches(s);
  if (alts) return alts.length > 0 ? sample(alts[0]) : null;
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k] ?? {});
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}));
    case 'integer':
    case 'number': {
      if (s.maximum === 2_147_483_647) return 999_999;
      const min = s.minimum ?? 1;
      return Math.min(Math.max(1, min), s.maximum ?? 1);
    }
    case 'boolean':
      return false;
    case 'string':
      return sampleString(s);
    default:
      return null;
  }
}

interface Mutation {
  path: string[];
  kind: Kind;
  value: unknown;
}

/** Every way to make exactly one field of `s` hostile, each as a whole value for `s`. */
export function mutations(s: Schema): Mutation[] {
  const alts = branches(s);
  if (alts) return alts.flatMap(mutations);
  switch (s.type) {
    case 'object': {
      const base = sample(s) as Record<string, unknown>;
      return Object.entries(s.properties ?? {}).flatMap(([k, p]) =>
        mutations(p).map((m) => ({ ...m, path: [k, ...m.path], value: { ...base, [k]: m.value } })),
      );
    }
    case 'array': {
      const rest = Array.from({ length: Math.max((s.minItems ?? 1) - 1, 0) }, () => sample(s.items ?? {}));
      return mutations(s.items ?? {}).map((m) => ({ ...m, path: ['0', ...m.path], value: [m.value, ...rest] }));
    }
    case 'integer':
    case 'number':
      return [{ path: [], kind: 'out-of-range', value: outOfRange(s) }];
    case 'string':
      return [{ path: [], kind: 'nul', value: NUL_TEXT }];
    default:
      return [];
  }
}

/** Integer and number fields of a request schema that name no maximum. */
export function unboundedNumbers(s: Schema, at = ''): string[] {
  const alts = branches(s);
  if (alts) return alts.flatMap((b) => unboundedNumbers(b, at));
  if (s.type === 'object') return Object.entries(s.properties ?? {}).flatMap(([k, p]) => unboundedNumbers(p, `${at}.${k}`));
  if (s.type === 'array') return unboundedNumbers(s.items ?? {}, `${at}.0`);
  const fixed = s.const !== undefined || s.enum !== undefined;
  return (s.type === 'integer' || s.type === 'number') && s.maximum === undefined && !fixed ? [at] : [];
}

function asParam(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Every hostile request the document describes. `pathSamples` names a real value for a path
 * parameter whose plausible value the schema cannot tell (a setting's key).
 */
export function hostileCases(doc: OpenApiDoc, pathSamples: Record<string, string> = {}): HostileCase[] {
  const out: HostileCase[] = [];
  for (const { method, template, params, body: bodySchema } of routesOf(doc)) {
    const request = (over: { in: string; name: string; value: unknown } | null, payload: unknown) => {
      const pathValues: Record<string, string> = {};
      const query = new URLSearchParams();
      for (const p of params) {
        const hit = over && over.in === p.in && over.name === p.name;
        if (!hit && p.in === 'query' && !p.required) continue;
        const v = asParam(hit ? over.value : p.in === 'path' && pathSamples[p.name] ? pathSamples[p.name] : sample(p.schema));
        if (p.in === 'path') pathValues[p.name] = encodeURIComponent(v);
        else if (p.in === 'query') query.set(p.name, v);
      }
      const url = fillPath(template, pathValues);
      const qs = query.toString();
      return { url: qs ? `${url}?${qs}` : url, payload };
    };
    const basePayload = bodySchema ? sample(bodySchema) : undefined;
    const add = (field: string, kind: Kind, r: { url: string; payload: unknown }) => {
      const name = `${method} ${template} ${field} ${kind}`;
      // Two branches of a union may reach the same field the same way: one case is enough.
      if (!out.some((c) => c.name === name)) out.push({ name, method, field, kind, ...r });
    };
    for (const p of params) {
      if (p.in !== 'path' && p.in !== 'query') continue;
      const part = p.in === 'path' ? 'params' : 'querystring';
      for (const m of mutations(p.schema)) add(`${part}.${p.name}`, m.kind, request({ in: p.in, name: p.name, value: m.value }, basePayload));
    }
    if (bodySchema) {
      for (const m of mutations(bodySchema)) add(['body', ...m.path].join('.'), m.kind, request(null, m.value));
    }
  }
  return out;
}
