import { Type, type Static } from 'typebox';

const Entry = Type.String({ maxLength: 300 });

export const AllowlistStateSchema = Type.Object({
  enabled: Type.Boolean(),
  subscription_url: Type.String(),
  subscription_ips: Type.Array(Type.String()),
  manual_ips: Type.Array(Type.String()),
  subscription_count: Type.Integer(),
  manual_count: Type.Integer(),
  total_count: Type.Integer(),
  last_refresh: Type.Union([Type.String(), Type.Null()]),
});

export const ParseSubscriptionBody = Type.Object({ url: Type.String({ minLength: 1, maxLength: 4096 }) });

export const ParseSubscriptionResponse = Type.Object({ hosts: Type.Array(Type.String()), count: Type.Integer() });

export const SaveBody = Type.Object({
  manual_ips: Type.Array(Entry, { default: [], maxItems: 10000 }),
  subscription_url: Type.Optional(Type.String({ maxLength: 4096 })),
  enabled: Type.Optional(Type.Boolean()),
});

export const SaveResponse = Type.Object({
  success: Type.Boolean(),
  manual_count: Type.Integer(),
  subscription_ips: Type.Array(Type.String()),
  subscription_count: Type.Integer(),
  last_refresh: Type.Union([Type.String(), Type.Null()]),
  refresh_ok: Type.Boolean(),
  refresh_error: Type.Union([Type.String(), Type.Null()]),
});

/** `true`/`false`, also `1`/`0`, `yes`/`no`, `on`/`off` (case-insensitive), as form-style clients send. */
export const ToggleQuery = Type.Object({ enabled: Type.Union([Type.Boolean(), Type.String({ maxLength: 10 })]) });

export function parseBoolParam(value: boolean | string): boolean | null {
  if (typeof value === 'boolean') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return null;
}

export const ToggleResponse = Type.Object({ success: Type.Boolean(), enabled: Type.Boolean() });

export const ManualBody = Type.Object({ ips: Type.Array(Entry, { minItems: 1, maxItems: 100 }) });

export const ManualResponse = Type.Object({ success: Type.Boolean(), manual_ips: Type.Array(Type.String()) });

export const RemoveQuery = Type.Object({ ip: Type.String({ minLength: 1, maxLength: 300 }) });

export const RemoveResponse = Type.Object({ success: Type.Boolean(), removed: Type.String(), remaining: Type.Integer() });
/** A batch judged line by line, nothing stored: the same limits as `POST /ip-allowlist/manual`. */
export const ValidateBody = ManualBody;

export const ValidateResponse = Type.Object({
  entries: Type.Array(
    Type.Object({
      /** 1-based position in `ips` (empty entries are skipped, as the writes skip them). */
      line: Type.Integer(),
      input: Type.String(),
      /** The stored form (domains lower-cased), null when invalid. */
      entry: Type.Union([Type.String(), Type.Null()]),
      /** `invalid`: not an IPv4 address, an IPv4/bits range or a domain name. */
      error: Type.Union([Type.Literal('invalid'), Type.Null()]),
    }),
  ),
  valid_count: Type.Integer(),
  invalid_count: Type.Integer(),
});

/** The caller's address as the login sees it, and what the current lists decide for it. */
export const CheckResponse = Type.Object({
  ip: Type.String(),
  enabled: Type.Boolean(),
  /** An entry of the stored lists matches the address (whether the allowlist is on or not). */
  listed: Type.Boolean(),
  /** A login from this address passes now (`!enabled || listed`). */
  allowed: Type.Boolean(),
});

export const RefreshResponse = Type.Object({
  success: Type.Boolean(),
  refresh_ok: Type.Boolean(),
  refresh_error: Type.Union([Type.String(), Type.Null()]),
  subscription_count: Type.Integer(),
  total_count: Type.Integer(),
  last_refresh: Type.Union([Type.String(), Type.Null()]),
});

export type ValidateResponse = Static<typeof ValidateResponse>;
export type CheckResponse = Static<typeof CheckResponse>;
export type RefreshResponse = Static<typeof RefreshResponse>;
export type ParseSubscriptionBody = Static<typeof ParseSubscriptionBody>;
export type ParseSubscriptionResponse = Static<typeof ParseSubscriptionResponse>;
export type SaveBody = Static<typeof SaveBody>;
export type SaveResponse = Static<typeof SaveResponse>;
export type ToggleResponse = Static<typeof ToggleResponse>;
export type ManualBody = Static<typeof ManualBody>;
export type ManualResponse = Static<typeof ManualResponse>;
export type RemoveResponse = Static<typeof RemoveResponse>;
export type AllowlistState = Static<typeof AllowlistStateSchema>;
