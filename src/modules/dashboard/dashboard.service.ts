/** One read for the dashboard, made of the features that own each part. */
import type { ActiveAlertsService } from '../alerts/index.js';
import type { PushService } from '../push/index.js';
import type { RetriesService } from '../retries/index.js';
import type { FleetQueryService } from '../servers/index.js';
import type { DashboardView } from './dashboard.schemas.js';

export interface DashboardDeps {
  fleet: Pick<FleetQueryService, 'statusCounts'>;
  alerts: Pick<ActiveAlertsService, 'list'>;
  push: Pick<PushService, 'summaries'>;
  retries: Pick<RetriesService, 'overview'>;
}

export class DashboardService {
  constructor(private readonly d: DashboardDeps) {}

  async view(): Promise<DashboardView> {
    const [servers, alerts, pushes, retries] = await Promise.all([
      this.d.fleet.statusCounts(),
      this.d.alerts.list(10),
      this.d.push.summaries({ limit: 5, offset: 0 }),
      this.d.retries.overview(5),
    ]);
    return { servers, alerts, pushes: pushes.items, retries };
  }
}
