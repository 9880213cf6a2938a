/**
 * fast-check arbitraries read from a route's own JSON schema: mostly values the schema accepts
 * (boundaries included), and at every depth a chance of a value mutated out of it — a wrong
 * type, one past a bound, an extra property, a huge string, NUL and odd Unicode, deep nesting,
 * shell and path tricks. Fields that reach the outside world (a server's host and port, URLs the
 * service fetches) are drawn from `overrides` so no generated request can address a real machine.
 */
import fc from 'fast-check';
import type { Schema } from '../helpers/openapi.js';

/** Strings that break naive code: control characters, shell and option syntax, traversal, odd Unicode. */
export function hostileStrings(marker: string): string[] {
  return [
    '', ' ', '\u0000', 'a\u0000b', '\n', 'a\r\nb', '\t', '\u007f', '--help', '-rf', `-oProxyCommand=touch ${marker}`,
    `$(touch ${marker})`, `\`touch ${marker}\``, `'; touch ${marker} #`, `"; touch ${marker}; "`, `x && touch ${marker}`,
    '*', '?', '[a-z]*', '{a,b}', '~', '~root', '.', '..', '../..', '../../etc/passwd', '..\\..\\windows', '%2e%2e/%2e%2e',
    '%252e%252e%252f', '\u2024\u2024/', '\uff0e\uff0e/', '\u00c0\u00ae\u00c0\u00ae/', '/', '//', '/etc/passwd', '/proc/self/environ',
    '\ud800', '\udfff\ud800', '\u202e\u0074\u0078\u0074', '\u0130', '\ufb00', '\u0430dmin', 'e\u0301', '😀', '\ufeff', '\u200b',
    'null', 'undefined', 'true', '0', '-1', '1e999', 'NaN', '0x7fffffff', '9'.repeat(400), "' OR '1'='1", '"; DROP TABLE servers; --',
    '%s%s%s%n', '{{7*7}}', '<script>alert(1)</script>', '__proto__', 'constructor', 'x'.repeat(5_000), 'é'.repeat(70_000),
    `${'a/'.repeat(2_100)}b`, `${'n'.repeat(255)}/${'m'.repeat(256)}`,
  ];
}

/** Values of every JSON type, for a field that expects one of them. */
const WRONG_TYPES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.0001, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, '', 'x', [], [null], {}, { a: 1 }, [[[]]],
];

/** `depth` levels of arrays or objects around a leaf: the body parser and every walker must cope. */
function nested(depth: number, asObject: boolean): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
}

/** `obj` plus own `__proto__` and `constructor` keys (as JSON.parse makes them), aimed at a shared prototype. */
function withPollution(obj: object): unknown {
  const inner = JSON.stringify(obj).slice(1, -1);
  return JSON.parse(`{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}${inner ? `,${inner}` : ''}}`);
}

export interface ArbitraryOptions {
  marker: string;
  /** By property name: the arbitrary to use instead of the schema's (outside-world fields). */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** Relative weight of a schema-shaped value against a mutated one at each field (default 6). */
  validWeight?: number;
}

function branchesOf(s: Schema): Schema[] | null {
  return s.anyOf ?? s.oneOf ?? null;
}

function bounds(s: Schema, lo: number, hi: number): [number, number] {
  let min = s.minimum ?? lo;
  let max = s.maximum ?? hi;
  if (typeof s.exclusiveMinimum === 'number') min = s.exclusiveMinimum + 1;
  if (typeof s.exclusiveMaximum === 'number') max = s.exclusiveMaximum - 1;
  return [min, Math.max(min, max)];
}

/** A value the schema accepts, its children drawn by `field` (so they may still be mutated). */
function valid(s: Schema, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = branchesOf(s);
  if (alts) return fc.oneof(...alts.map((b) => valid(b, o)));
  const base = validOfType(s, o);
  return s.nullable ? fc.option(base, { nil: null, freq: 6 }) : base;
}

function validOfType(s: Schema, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  switch (s.type) {
    case 'integer': {
      const [min, max] = bounds(s, -(2 ** 31), 2 ** 31 - 1);
      const small = fc.integer({ min: Math.max(min, Math.min(1, max)), max: Math.min(max, Math.max(min, 6)) });
      return fc.oneof(small, fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number': {
      const [min, max] = bounds(s, -1e9, 1e9);
      return fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return validString(s);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      return fc.array(field(s.items ?? {}, o), { minLength, maxLength });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = (s.required ?? []).filter((k) => k in props);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, p] of Object.entries(props)) model[k] = o.overrides?.[k] ?? field(p, o);
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(s: Schema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
  if (s.format === 'date-time' || s.format === 'date') {
    const d = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true });
    return d.map((x) => (s.format === 'date' ? x.toISOString().slice(0, 10) : x.toISOString()));
  }
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    return fc.stringMatching(re).filter((x) => x.length >= minLength && x.length <= (s.maxLength ?? Number.POSITIVE_INFINITY));
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    fc.string({ minLength, maxLength, unit: 'binary' }),
  );
}

/** A value mutated out of the schema: a wrong type, one past a bound, an extra property, a hostile string, deep nesting. */
function mutated(s: Schema, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  const out: fc.Arbitrary<unknown>[] = [
    fc.constantFrom(...WRONG_TYPES),
    fc.constantFrom(...hostileStrings(o.marker)),
    fc.integer({ min: 1, max: 3_000 }).chain((d) => fc.boolean().map((obj) => nested(d, obj))),
  ];
  if (s.type === 'integer' || s.type === 'number') {
    const [min, max] = bounds(s, -(2 ** 31), 2 ** 31 - 1);
    out.push(fc.constantFrom(min - 1, max + 1, min - 0.5, `${min}`, Number.MAX_SAFE_INTEGER + 2));
  }
  if (s.type === 'string') {
    const over = (s.maxLength ?? 4096) + 1;
    out.push(fc.constantFrom('y'.repeat(over), '\u{1F600}'.repeat(Math.ceil(over / 2)), 'z'.repeat(Math.max((s.minLength ?? 0) - 1, 0))));
  }
  if (s.type === 'object') {
    out.push(
      fc.tuple(valid(s, o), fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 })).map(
        ([v, extra]) => withPollution({ ...extra, ...(v as object) }),
      ),
    );
  }
  if (s.type === 'array') out.push(fc.constant(Array.from({ length: 5_000 }, (_v, i) => i + 1)));
  return fc.oneof(...out);
}

/** A value for a field of schema `s`: schema-shaped most of the time, mutated otherwise. */
export function field(s: Schema, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: o.validWeight ?? 6, arbitrary: valid(s, o) }, { weight: 1, arbitrary: mutated(s, o) });
}
