import { Type, type Static } from 'typebox';
import { ActiveAlerts } from '../alerts/active-alerts.schemas.js';
import { BatchSummary } from '../push/push.schemas.js';
import { RetryOverview } from '../retries/retries.schemas.js';
import { StatusCounts } from '../servers/fleet-query.schemas.js';

/** What an operator checks first: servers by status, active alerts, the last pushes, retry jobs. */
export const DashboardView = Type.Object({
  servers: StatusCounts,
  alerts: ActiveAlerts,
  pushes: Type.Array(BatchSummary),
  retries: RetryOverview,
});

export type DashboardView = Static<typeof DashboardView>;
