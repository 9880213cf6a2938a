import { Type, type Static } from 'typebox';

/** A server that takes its credentials from a preset: enough to name it and link to it. */
export const PresetServer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  username: Type.String(),
  auth_type: Type.String(),
  status: Type.String(),
});

/** How many servers use each preset (presets no server uses are absent). */
export const PresetUsage = Type.Object({
  password_presets: Type.Array(Type.Object({ preset_id: Type.Integer(), servers: Type.Integer() })),
  ssh_key_presets: Type.Array(Type.Object({ preset_id: Type.Integer(), servers: Type.Integer() })),
});

export type PresetServer = Static<typeof PresetServer>;
export type PresetUsage = Static<typeof PresetUsage>;
export type PresetKind = 'password' | 'ssh_key';
