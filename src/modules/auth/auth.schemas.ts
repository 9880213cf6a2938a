import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';

export const TokenPairSchema = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
});

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  totp_code: Type.Optional(Type.String({ maxLength: 16 })),
});

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 4096 }) });

/** `GET /api/auth/me`: an administrator, or the API key's pseudo-admin (id 0, no created_at). */
export const MeView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  totp_enabled: Type.Boolean(),
  created_at: Type.Union([Type.String(), Type.Null()]),
});

export const ChangePasswordBody = Type.Object({
  // Empty is just wrong: the 400 of a mismatch, not a 422.
  current_password: Type.String({ maxLength: 1024 }),
  new_password: Type.String({ minLength: 8, maxLength: 1024 }),
});

/** The password is required (422 without it): TOTP is switched on only by whoever knows it. */
export const TotpEnableBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 16 }),
  current_password: Type.String({ maxLength: 1024 }),
});

export const TotpDisableBody = Type.Object({ current_password: Type.String({ maxLength: 1024 }) });

export const SuccessSchema = Type.Object({ success: Type.Boolean() });
export type TokenPair = Static<typeof TokenPairSchema>;
export type LoginBody = Static<typeof LoginBody>;
export type RefreshBody = Static<typeof RefreshBody>;
export type MeView = Static<typeof MeView>;
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
export type TotpEnableBody = Static<typeof TotpEnableBody>;

/** Public: on a fresh install, where the first administrator's generated password is kept. */
export const FirstRunView = Type.Object({
  /** Absolute path of `DATA_DIR/initial-admin-password` while it exists (until that admin's first login), else null. */
  initial_password_file: Nullable(Type.String()),
});
export type FirstRunView = Static<typeof FirstRunView>;
