import { Type, type Static } from 'typebox';

export { IdParams, PresetRef, RevealBody } from '../presets/presets.schemas.js';

/** Large enough for an 8192-bit RSA key in any accepted armour. */
export const PRIVATE_KEY_MAX = 16_384;
/** One line; trailing line breaks (as a `.pub` file ends) are allowed and trimmed by the service. */
const ONE_LINE = '^[^\\u0000\\r\\n]*[\\r\\n]*$';

export const SshKeyPresetView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  public_key: Type.String(),
  private_key_set: Type.Boolean(),
  created_at: Type.String(),
});

const Username = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);
const PublicKey = Type.Union([Type.String({ maxLength: 8192, pattern: ONE_LINE }), Type.Null()]);

export const CreateSshKeyPresetBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  username: Type.Optional(Username),
  private_key: Type.String({ minLength: 1, maxLength: PRIVATE_KEY_MAX }),
  public_key: Type.Optional(PublicKey),
});

export const UpdateSshKeyPresetBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  username: Type.Optional(Username),
  private_key: Type.Optional(Type.String({ minLength: 1, maxLength: PRIVATE_KEY_MAX })),
  public_key: Type.Optional(PublicKey),
});

export const RevealedSshKeyPreset = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  private_key: Type.String(),
  public_key: Type.String(),
});
export type SshKeyPresetView = Static<typeof SshKeyPresetView>;
export type CreateSshKeyPresetBody = Static<typeof CreateSshKeyPresetBody>;
export type UpdateSshKeyPresetBody = Static<typeof UpdateSshKeyPresetBody>;
export type RevealedSshKeyPreset = Static<typeof RevealedSshKeyPreset>;
