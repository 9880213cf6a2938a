import { Type, type Static } from 'typebox';

export const AdminView = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  totp_enabled: Type.Boolean(),
  created_at: Type.String(),
});

export const CreateAdminBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 8, maxLength: 1024 }),
});

export type AdminView = Static<typeof AdminView>;
export type CreateAdminBody = Static<typeof CreateAdminBody>;
