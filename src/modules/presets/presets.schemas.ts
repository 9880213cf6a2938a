import { Type, type Static } from 'typebox';

export { IdParams } from '../../http/schemas.js';

export const PresetRef = Type.Object({ id: Type.Integer(), name: Type.String() });

export const PresetView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  created_at: Type.String(),
});

const Username = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);

export const CreatePresetBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  username: Type.Optional(Username),
  encrypted_pw: Type.String({ minLength: 1, maxLength: 4096 }),
});

export const UpdatePresetBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  username: Type.Optional(Username),
  encrypted_pw: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

/** An empty current_password is just a wrong one: 400 like any mismatch, not a 422. */
export const RevealBody = Type.Object({ current_password: Type.String({ maxLength: 1024 }) });

export const RevealedPreset = Type.Object({ id: Type.Integer(), name: Type.String(), password: Type.String() });
export type PresetRef = Static<typeof PresetRef>;
export type PresetView = Static<typeof PresetView>;
export type CreatePresetBody = Static<typeof CreatePresetBody>;
export type UpdatePresetBody = Static<typeof UpdatePresetBody>;
export type RevealBody = Static<typeof RevealBody>;
export type RevealedPreset = Static<typeof RevealedPreset>;
