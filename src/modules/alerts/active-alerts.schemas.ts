import { Type, type Static } from 'typebox';

/** An alert that is open now: when it opened and with which reading. */
export const ActiveAlert = Type.Object({
  id: Type.Integer(),
  server_id: Type.Integer(),
  server_name: Type.String(),
  alert_type: Type.String(),
  value: Type.Union([Type.Number(), Type.Null()]),
  since: Type.String(),
});

export const ActiveAlertsQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })) });

export const ActiveAlerts = Type.Object({
  /** How many alerts are active (the live set every process shares). */
  active: Type.Integer(),
  /** The newest of them, at most `limit`. */
  items: Type.Array(ActiveAlert),
});

export type ActiveAlert = Static<typeof ActiveAlert>;
export type ActiveAlerts = Static<typeof ActiveAlerts>;
