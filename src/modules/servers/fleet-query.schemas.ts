/**
 * Reading the fleet a page at a time (the console's servers table stays fast with 10,000
 * servers): search by name or host, filter by tag and status, sort, and page on the server.
 * These add to `/api/servers` and leave the plain list (`GET /api/servers`) as it is.
 */
import { Type, type Static } from 'typebox';
import { ServerStatus } from '../../core/column-values.js';
import { ServerView } from './servers.schemas.js';


export const FleetFilter = {
  /** Part of the name or host, case-insensitive. */
  q: Type.Optional(Type.String({ maxLength: 255 })),
  tag: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(ServerStatus),
};

export const FleetSort = Type.Union([Type.Literal('name'), Type.Literal('status'), Type.Literal('last_heartbeat'), Type.Literal('created')]);

export const FleetPageQuery = Type.Object({
  ...FleetFilter,
  /** `status` sorts offline, unknown, online; `last_heartbeat` puts servers that never sent one last. */
  sort: Type.Optional(FleetSort),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});

export const FleetPage = Type.Object({
  items: Type.Array(ServerView),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const FleetIdsQuery = Type.Object(FleetFilter);

/** Every id matching a filter, for "select all" without loading the rows. */
export const FleetIds = Type.Object({ ids: Type.Array(Type.Integer()), total: Type.Integer() });

export const TagCount = Type.Object({ tag: Type.String(), count: Type.Integer() });

/**
 * Servers by their two signals. The agent: `online`, `offline`, and `unknown` = `no_agent` (never
 * sent a heartbeat; both fields carry the same number). SSH, from every contact the service
 * makes: `reachable`, `failing`, `never` (never contacted).
 */
export const StatusCounts = Type.Object({
  total: Type.Integer(),
  online: Type.Integer(),
  offline: Type.Integer(),
  unknown: Type.Integer(),
  no_agent: Type.Integer(),
  ssh: Type.Object({ reachable: Type.Integer(), failing: Type.Integer(), never: Type.Integer() }),
});

export type FleetFilter = Static<typeof FleetIdsQuery>;
export type FleetSort = Static<typeof FleetSort>;
export type FleetPageQuery = Static<typeof FleetPageQuery>;
export type FleetPage = Static<typeof FleetPage>;
export type FleetIds = Static<typeof FleetIds>;
export type TagCount = Static<typeof TagCount>;
export type StatusCounts = Static<typeof StatusCounts>;

// The stored values' schemas, shared with the table types (see core/column-values.ts).
export { ServerStatus };
