/**
 * Writes the console's typed route map, `web/src/api/routes.gen.ts` (`npm run gen:api`), from the
 * service's own route schemas: the app is built (on a throwaway data directory, no background
 * jobs), its OpenAPI document read, and every operation's path params, query, JSON body and
 * success reply turned into TypeScript by json-schema-to-typescript. The console's `call()`
 * (web/src/api/typed.ts) takes its types from this map, so a path, method or shape that no longer
 * matches the service breaks the console's build. test/scripts/gen-api-types.test.ts fails when
 * the committed file is not what this generates.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';

export const OUTPUT = path.resolve(import.meta.dirname, '../web/src/api/routes.gen.ts');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** The replies a caller can get on success: every 2xx the route documents (one of them, at run time). */
const SUCCESS = ['200', '201', '202', '204'] as const;

type Schema = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, Schema> };
}

/** The OpenAPI document of the service as it is built now. */
export async function readOpenApi(): Promise<OpenApiDoc> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-gen-api-'));
  const env = { DATA_DIR: dir, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'gen-api-password', LOG_LEVEL: 'silent', FLEET_BACKGROUND_JOBS: '0' };
  const app = await buildApp(loadConfig(env, { create: true }), { consoleDir: null });
  try {
    await app.ready();
    return app.swagger() as unknown as OpenApiDoc;
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const NOTHING: Schema = { tsType: 'never' };

/** Path or query parameters as one object schema (`never` when the route has none). */
function paramsSchema(params: Parameter[], where: 'path' | 'query'): Schema {
  const own = params.filter((p) => p.in === where);
  if (own.length === 0) return NOTHING;
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(own.map((p) => [p.name, p.schema ?? {}])),
    required: own.filter((p) => p.required || where === 'path').map((p) => p.name),
  };
}

function replySchema(op: Operation): Schema {
  const replies = SUCCESS.filter((status) => op.responses?.[status]).map((status): Schema => {
    if (status === '204') return { tsType: 'void' };
    return op.responses?.[status]?.content?.['application/json']?.schema ?? { tsType: 'unknown' };
  });
  if (replies.length === 0) return { tsType: 'unknown' };
  return replies.length === 1 ? (replies[0] as Schema) : { anyOf: replies };
}

/**
 * The OpenAPI 3.0 document writes a nullable value as `nullable: true` (its own keyword, which
 * JSON Schema tools ignore); written back as `anyOf [value, null]` so `null` reaches the types.
 */
export function withNulls(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNulls);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Schema & { nullable?: boolean };
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'properties' || k === 'patternProperties' ? mapValues(v) : withNulls(v)]));
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

function mapValues(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withNulls(x)]));
}

/** One schema whose properties are `"METHOD /path"` → { params, query, body, reply }. */
export function routeMapSchema(doc: OpenApiDoc): JSONSchema {
  const routes: Record<string, Schema> = {};
  for (const [p, item] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    if (!p.startsWith('/api/')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      // A prefixed plugin's root route answers with and without the slash; the key has none.
      const route = p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
      routes[`${method.toUpperCase()} ${route}`] = {
        type: 'object',
        additionalProperties: false,
        required: ['params', 'query', 'body', 'reply'],
        properties: {
          params: paramsSchema(params, 'path'),
          query: paramsSchema(params, 'query'),
          body: op.requestBody?.content?.['application/json']?.schema ?? NOTHING,
          reply: replySchema(op),
        },
      };
    }
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(routes),
    properties: routes,
    ...(doc.components?.schemas ? { components: { schemas: doc.components.schemas } } : {}),
  } as JSONSchema;
}

const BANNER = `/* Generated by \`npm run gen:api\` from the service's route schemas (scripts/gen-api-types.ts). Do not edit. */`;

export async function generateApiTypes(doc?: OpenApiDoc): Promise<string> {
  const schema = routeMapSchema(withNulls(doc ?? (await readOpenApi())) as OpenApiDoc);
  // Titles inside the schemas would become hundreds of named interfaces; inline shapes read as well.
  const ts = await compile(schema, 'ApiRoutes', {
    bannerComment: BANNER,
    additionalProperties: false,
    declareExternallyReferenced: true,
    enableConstEnums: false,
    ignoreMinAndMaxItems: true,
    strictIndexSignatures: false,
    unknownAny: true,
    format: true,
    customName: () => undefined,
    style: { printWidth: 140, singleQuote: true },
  });
  return ts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.writeFileSync(OUTPUT, await generateApiTypes());
  console.log(`${path.relative(process.cwd(), OUTPUT)}: route map written from the service's schemas`);
}
