import { Type, type Static } from 'typebox';

export const SettingSchema = Type.Object({
  key: Type.String(),
  value: Type.Union([Type.String(), Type.Null()]),
  value_set: Type.Union([Type.Boolean(), Type.Null()]),
  updated_at: Type.String(),
});

export const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });

/** Numbers and booleans are accepted and stored in their string form. */
export const PutSettingBody = Type.Object({
  value: Type.Union([Type.String({ maxLength: 65536 }), Type.Number(), Type.Boolean(), Type.Null()]),
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
export type SettingView = Static<typeof SettingSchema>;
export type PutSettingBody = Static<typeof PutSettingBody>;
export type PutSettingResponse = Static<typeof PutSettingResponse>;
export type RevealResponse = Static<typeof RevealResponse>;
export type RotateApiKeyBody = Static<typeof RotateApiKeyBody>;
