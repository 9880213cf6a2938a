import { Type, type Static } from 'typebox';

const Percent = Type.Number({ minimum: 0, maximum: 100 });

export const HeartbeatBody = Type.Object({
  cpu: Percent,
  mem: Percent,
  disk: Percent,
  /** Agent clock, unix seconds. */
  ts: Type.Number({ minimum: 0, maximum: 1e11 }),
  load: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  uptime: Type.Optional(Type.Number({ minimum: 0, maximum: 1e11 })),
  /** The agent's own version (agents before it was sent omit it). */
  version: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z0-9._+-]*$' })),
});

export const HeartbeatOk = Type.Object({ ok: Type.Literal(true) });


export const AgentToken = Type.Object({ server_id: Type.Integer(), agent_token: Type.String() });

export const InstallBody = Type.Union([
  Type.Object({ api_base_url: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) }),
  Type.Null(),
]);

export const InstallResult = Type.Object({
  success: Type.Literal(true),
  server_id: Type.Integer(),
  method: Type.String(),
  install_dir: Type.String(),
  api_base_url: Type.String(),
});

/**
 * `status` sorts offline, unknown (no agent), online; the readings (cpu … version) sort servers
 * without one last whichever the direction; names and versions compare numbers as numbers.
 */
export const MetricsSort = Type.Union([
  Type.Literal('status'), Type.Literal('name'), Type.Literal('cpu'), Type.Literal('mem'), Type.Literal('disk'),
  Type.Literal('load'), Type.Literal('drift'), Type.Literal('version'), Type.Literal('last_heartbeat'),
]);

export const MetricsQuery = Type.Object({
  /** Readings per server for the sparkline, newest last. */
  points: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, default: 30 })),
  /** Part of the name or host, case-insensitive. */
  q: Type.Optional(Type.String({ maxLength: 255 })),
  /** Default `name`. */
  sort: Type.Optional(MetricsSort),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  /** One page of the sorted servers; without it, every matching server. */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});

const Point = Type.Object({ at: Type.String(), cpu: Type.Number(), mem: Type.Number(), disk: Type.Number() });

export const ServerMetrics = Type.Object({
  server_id: Type.Integer(),
  name: Type.String(),
  host: Type.String(),
  status: Type.String(),
  last_heartbeat_at: Type.Union([Type.String(), Type.Null()]),
  /** The newest reading, null when none is kept (no agent, or silent for longer than the retention). */
  last: Type.Union([
    Type.Object({
      ...Point.properties,
      load: Type.Union([Type.Number(), Type.Null()]),
      /** Agent clock minus service clock, in seconds, at that heartbeat. */
      drift_s: Type.Integer(),
      version: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  points: Type.Array(Point),
});

export const MetricsView = Type.Object({
  /** How long readings are kept, in seconds. */
  retention_s: Type.Integer(),
  /** Servers matching `q`, before paging. */
  total: Type.Integer(),
  /** The matching servers in the asked order (`limit` of them from `offset`, when paged). */
  items: Type.Array(ServerMetrics),
});

export { ValidationErrorResponse as ValidationError } from '../../http/schemas.js';
export type HeartbeatBody = Static<typeof HeartbeatBody>;
export type HeartbeatOk = Static<typeof HeartbeatOk>;
export type AgentToken = Static<typeof AgentToken>;
export type InstallBody = Static<typeof InstallBody>;
export type InstallResult = Static<typeof InstallResult>;
export type MetricsView = Static<typeof MetricsView>;
export type MetricsQuery = Static<typeof MetricsQuery>;
export type MetricsSort = Static<typeof MetricsSort>;
export type ServerMetrics = Static<typeof ServerMetrics>;
