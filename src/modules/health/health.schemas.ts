import { Type, type Static } from 'typebox';

export const ProbeStatus = Type.Union([Type.Literal('ok'), Type.Literal('error')]);

/** The service answers; `db` and `cache` say whether it reaches them (each probe ≤ 2 s). */
export const HealthView = Type.Object({ status: Type.Literal('ok'), db: ProbeStatus, cache: ProbeStatus, version: Type.String() });

export type ProbeStatus = Static<typeof ProbeStatus>;
export type HealthView = Static<typeof HealthView>;
