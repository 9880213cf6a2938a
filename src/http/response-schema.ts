/**
 * A response schema as the serializer compiles it. `Nullable(T)` is `anyOf: [T, {type: 'null'}]`,
 * for which fast-json-stringify picks the branch of each value by calling an Ajv validator: ten
 * calls per server of the server list, a third of that route's serialization time. When T is a
 * bare string, integer or boolean (`type` and annotations only: no format, length, pattern, enum
 * or bound, which the serializer would check or write by), `type: [T, 'null']` writes every
 * value the union accepts to the same text and refuses the same numbers, picking the branch with
 * a `typeof` test. Only an object in a `string | null` slot is treated otherwise: written through
 * its `toString` instead of failing the answer. Not `number`: the union refuses ±Infinity, a type
 * list would write it as null. The route's own schema (validation, OpenAPI) is left as it is;
 * the serializer gets a rewritten copy.
 */

const SCALARS = new Set(['string', 'integer', 'boolean']);
/** Keys of a branch that change nothing about how a value is written. */
const ANNOTATIONS = new Set(['type', 'description', 'title', 'examples', '$comment']);
/** Keys whose values are data, never schemas: not walked. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The scalar type of a `[scalar, null]` union, or null when the node is anything else. */
function nullableScalar(node: Node): string | null {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || !options.every(isNode)) return null;
  const [value, none] = options as [Node, Node];
  const bare = (b: Node) => Object.keys(b).every((k) => ANNOTATIONS.has(k));
  if (none.type !== 'null' || !bare(none) || !bare(value)) return null;
  return typeof value.type === 'string' && SCALARS.has(value.type) ? value.type : null;
}

/** A copy of `schema` with every nullable bare scalar written as a type list; `schema` is not changed. */
export function nullableAsTypeList<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s) => nullableAsTypeList(s)) as T;
  if (!isNode(schema)) return schema;
  const scalar = nullableScalar(schema);
  if (scalar) {
    const { anyOf: _options, ...rest } = schema;
    return { ...rest, type: [scalar, 'null'] } as T;
  }
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) out[k] = DATA_KEYS.has(k) ? v : nullableAsTypeList(v);
  return out as T;
}
