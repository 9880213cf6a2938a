import { Type, type Static } from 'typebox';

const Percent = Type.Number({ minimum: 0, maximum: 100 });

export const HeartbeatBody = Type.Object({
  cpu: Percent,
  mem: Percent,
  disk: Percent,
  /** Agent clock, unix seconds. */
  ts: Type.Number({ minimum: 0, maximum: 1e11 }),
  load: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  uptime: Type.Optional(Type.Number({ minimum: 0, maximum: 1e11 })),
});

export const HeartbeatOk = Type.Object({ ok: Type.Literal(true) });


export const AgentToken = Type.Object({ server_id: Type.Integer(), agent_token: Type.String() });

export const InstallBody = Type.Union([
  Type.Object({ api_base_url: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) }),
  Type.Null(),
]);

export const InstallResult = Type.Object({
  success: Type.Literal(true),
  server_id: Type.Integer(),
  method: Type.String(),
  install_dir: Type.String(),
  api_base_url: Type.String(),
});

export { ValidationErrorResponse as ValidationError } from '../../http/schemas.js';
export type HeartbeatBody = Static<typeof HeartbeatBody>;
export type HeartbeatOk = Static<typeof HeartbeatOk>;
export type AgentToken = Static<typeof AgentToken>;
export type InstallBody = Static<typeof InstallBody>;
export type InstallResult = Static<typeof InstallResult>;
