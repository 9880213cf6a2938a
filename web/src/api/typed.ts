/**
 * The console's one typed call: `call('GET /api/servers/{id}', { params: { id } })`. The route
 * key, its params, query, body and reply all come from `routes.gen.ts`, which `npm run gen:api`
 * writes from the service's own route schemas, so nothing pairs a path with a type by hand and a
 * route the service no longer has (or answers differently) fails the console's type-check.
 * Requests go through `request` (tokens, refresh, error mapping).
 */
import { request } from './client';
import type { ApiRoutes } from './routes.gen';

export type RouteKey = keyof ApiRoutes;
export type Reply<K extends RouteKey> = ApiRoutes[K]['reply'];
export type Body<K extends RouteKey> = ApiRoutes[K]['body'];
export type Query<K extends RouteKey> = ApiRoutes[K]['query'];
export type Params<K extends RouteKey> = ApiRoutes[K]['params'];

/** A part the route has is required when the route requires it; a part it lacks cannot be given. */
type Part<Name extends string, T> = [T] extends [never]
  ? { [P in Name]?: never }
  : Record<string, never> extends T
    ? { [P in Name]?: T }
    : { [P in Name]: T };

export type CallArgs<K extends RouteKey> = Part<'params', Params<K>> &
  Part<'query', Query<K>> &
  Part<'body', Body<K>> & {
    signal?: AbortSignal;
    /** Sent as `Idempotency-Key`: the service answers a repeat with the first answer. */
    idempotencyKey?: string;
  };

/** The URL of a route key with its `{param}`s filled in (each encoded as one path segment). */
export function pathOf(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(v));
  });
}

// Routes without parameters or body may be called with the key alone.
type NoArgs<K extends RouteKey> = Record<string, never> extends CallArgs<K> ? [args?: CallArgs<K>] : [args: CallArgs<K>];

export function call<K extends RouteKey>(key: K, ...[args]: NoArgs<K>): Promise<Reply<K>> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space);
  const a = (args ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal; idempotencyKey?: string };
  return request<Reply<K>>(method, pathOf(key.slice(space + 1), a.params), {
    query: a.query as Record<string, string | number | boolean | undefined | null> | undefined,
    body: a.body,
    signal: a.signal,
    idempotencyKey: a.idempotencyKey,
  });
}
