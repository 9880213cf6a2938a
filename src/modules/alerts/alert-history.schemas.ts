import { Type, type Static } from 'typebox';
import { Id } from '../../http/schemas.js';

const BOOL_WORDS = ['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0', 'yes', 'no', 'on', 'off', ''];

export const HistoryQuery = Type.Object({
  server_id: Type.Optional(Id),
  type: Type.Optional(Type.String({ maxLength: 32 })),
  is_recovery: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: BOOL_WORDS })),
  // `active` / `recovered` filter (and override is_recovery); any other value, e.g. `all`, filters nothing.
  status: Type.Optional(Type.String({ maxLength: 50 })),
  date_from: Type.Optional(Type.String({ maxLength: 40 })),
  date_to: Type.Optional(Type.String({ maxLength: 40 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 })),
});

export const AlertEntry = Type.Object({
  id: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Type.String(),
  alert_type: Type.String(),
  value: Type.Union([Type.Number(), Type.Null()]),
  is_recovery: Type.Boolean(),
  created_at: Type.String(),
});

export const HistoryPage = Type.Object({
  items: Type.Array(AlertEntry),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
  pages: Type.Integer(),
});

export const StatsQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 3660 })),
});

export const Stats = Type.Object({
  top_types: Type.Array(Type.Object({ alert_type: Type.String(), count: Type.Integer() })),
  top_servers: Type.Array(Type.Object({ server_id: Type.Integer(), server_name: Type.String(), count: Type.Integer() })),
  daily: Type.Array(Type.Object({ day: Type.String(), alerts: Type.Integer(), recoveries: Type.Integer() })),
  today: Type.Integer(),
  recovered: Type.Integer(),
  active: Type.Integer(),
  top_server: Type.Union([Type.String(), Type.Null()]),
  /** Alerts (not recoveries) per day and type over the same days, for a stacked chart. Added by the console. */
  daily_types: Type.Optional(Type.Array(Type.Object({ day: Type.String(), alert_type: Type.String(), count: Type.Integer() }))),
});

/** The list's filters without its paging: an export is the whole filtered history. */
export const ExportQuery = Type.Omit(HistoryQuery, ['page', 'per_page', 'limit', 'offset']);

export { ValidationErrorResponse as ValidationError } from '../../http/schemas.js';
export type HistoryQuery = Static<typeof HistoryQuery>;
export type AlertEntry = Static<typeof AlertEntry>;
export type HistoryPage = Static<typeof HistoryPage>;
export type StatsQuery = Static<typeof StatsQuery>;
export type Stats = Static<typeof Stats>;
export type ExportQuery = Static<typeof ExportQuery>;
