import { Type, type Static } from 'typebox';

export const SettingSchema = Type.Object({
  key: Type.String(),
  value: Type.Union([Type.String(), Type.Null()]),
  value_set: Type.Union([Type.Boolean(), Type.Null()]),
  updated_at: Type.String(),
});

export const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });

/** The longest value PUT accepts (also served by `GET /api/settings/schema`). */
export const SETTING_VALUE_MAX_LENGTH = 65536;

/** Numbers and booleans are accepted and stored in their string form. */
export const PutSettingBody = Type.Object({
  value: Type.Union([Type.String({ maxLength: SETTING_VALUE_MAX_LENGTH }), Type.Number(), Type.Boolean(), Type.Null()]),
});

/** `{ key, value }`, or the masked Setting object when a blank sensitive value left the stored one alone. */
export const PutSettingResponse = Type.Object({
  key: Type.String(),
  value: Type.Union([Type.String(), Type.Null()]),
  value_set: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  updated_at: Type.Optional(Type.String()),
});

export const RevealResponse = Type.Object({ key: Type.String(), value: Type.String() });

/** An empty current_password is just a wrong one: 400 like any mismatch, not a 422. */
export const RotateApiKeyBody = Type.Object({ current_password: Type.String({ maxLength: 1024 }) });
/** `current_password` (optional): when given, checked like the login's (400 wrong, counted). */
export const RevealBody = Type.Object({ current_password: Type.Optional(Type.String({ maxLength: 1024 })) });

/**
 * The rule a key's value must follow, built from the same tables PUT validates with, so that a
 * client checks a value exactly as the service will: `integer` within `minimum`..`maximum` (0
 * also when `zero_off`), `string` within `enum` when one is given, `boolean` switches stored as
 * `true`/`false`.
 */
export const SettingRuleSchema = Type.Object({
  type: Type.Union([Type.Literal('integer'), Type.Literal('string'), Type.Literal('boolean')]),
  minimum: Type.Optional(Type.Integer()),
  maximum: Type.Optional(Type.Integer()),
  zero_off: Type.Optional(Type.Boolean()),
  enum: Type.Optional(Type.Array(Type.String())),
  max_length: Type.Optional(Type.Integer()),
});

export const SettingDescriptorSchema = Type.Object({
  key: Type.String(),
  group: Type.String(),
  schema: SettingRuleSchema,
  /** Masked in listings (`value_set`), shown only through a reveal endpoint. */
  secret: Type.Boolean(),
  /** Fixed by the deployment: PUT refuses it (403). */
  immutable: Type.Boolean(),
  /** False for the keys that guard access: the API key may not write them (403 `api_key_refused`). */
  api_key_may_change: Type.Boolean(),
  /** What GET answers for the key when no value is stored, else null. */
  default: Type.Union([Type.String(), Type.Null()]),
  /** For a switch: what an unset value means. */
  unset_means: Type.Optional(Type.Boolean()),
});

export const SettingsSchemaResponse = Type.Object({
  groups: Type.Array(Type.String()),
  settings: Type.Array(SettingDescriptorSchema),
});

export type SettingDescriptor = Static<typeof SettingDescriptorSchema>;
export type SettingsSchemaResponse = Static<typeof SettingsSchemaResponse>;
export type SettingView = Static<typeof SettingSchema>;
export type PutSettingBody = Static<typeof PutSettingBody>;
export type PutSettingResponse = Static<typeof PutSettingResponse>;
export type RevealResponse = Static<typeof RevealResponse>;
export type RotateApiKeyBody = Static<typeof RotateApiKeyBody>;
