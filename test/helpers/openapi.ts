/**
 * The app's own OpenAPI document, walked route by route: the input guard's hostile cases and the
 * route fuzzer both generate requests from what each route declares (path, query and header
 * parameters, JSON body), so a new route is covered by both without anyone listing it.
 */
import { makeTestApp } from './app.js';

/** The part of JSON Schema (as @fastify/swagger emits it, OpenAPI 3.0) the generators read. */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

export interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
}

/** One route of the document: `/api/servers/{id}` with its method and declared inputs. */
export interface Route {
  /** Upper case, as in a request: `GET`, `POST`. */
  method: string;
  /** The OpenAPI path template, `{name}` for each path parameter. */
  template: string;
  params: Parameter[];
  /** The JSON body schema, when the route takes one. */
  body?: Schema;
  /** `METHOD template`: unique and stable, for names and lists. */
  key: string;
}

/** Builds a throwaway app (SQLite, memory cache) only to read its document. */
export async function openApiDocument(): Promise<OpenApiDoc> {
  const t = await makeTestApp();
  try {
    return t.app.swagger() as unknown as OpenApiDoc;
  } finally {
    await t.close();
  }
}

/** Every route of the document, in its order. */
export function routesOf(doc: OpenApiDoc): Route[] {
  const out: Route[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      out.push({ method: m, template, params: op.parameters ?? [], body: op.requestBody?.content['application/json']?.schema, key: `${m} ${template}` });
    }
  }
  return out;
}

/** The template with each `{name}` replaced by its (already encoded) value. */
export function fillPath(template: string, encoded: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encoded[name] ?? '');
}
