import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../http/schemas.js';

export const AuditItem = Type.Object({
  id: Type.Integer(),
  admin_username: Nullable(Type.String()),
  action: Type.String(),
  target_type: Nullable(Type.String()),
  target_id: Nullable(Type.String()),
  resource_type: Nullable(Type.String()),
  resource_id: Nullable(Type.String()),
  /** Only for rows with target_type `server`: its name, or null when it no longer exists. */
  target_name: Type.Optional(Nullable(Type.String())),
  detail: Nullable(Type.String()),
  ip_address: Nullable(Type.String()),
  created_at: Type.String(),
});

/** Date filters are whole Asia/Shanghai days (a date) or Asia/Shanghai times (a datetime without offset). */
export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 100 })),
  admin_username: Type.Optional(Type.String({ maxLength: 100 })),
  date_from: Type.Optional(Type.String({ maxLength: 40 })),
  date_to: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});

/** The filters of the list without paging: the CSV export takes every matching entry. */
export const AuditExportQuery = Type.Omit(AuditQuery, ['limit', 'offset']);

export const AuditIdParams = Type.Object({ id: Id });

export const AuditActions = Type.Array(Type.String());

export const AuditPage = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  items: Type.Array(AuditItem),
});

export type AuditItem = Static<typeof AuditItem>;
export type AuditQuery = Static<typeof AuditQuery>;
export type AuditPage = Static<typeof AuditPage>;
export type AuditExportQuery = Static<typeof AuditExportQuery>;
