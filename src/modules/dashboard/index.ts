/** `GET /api/dashboard`: the console's first page in one request. */
import { mount, type Feature } from '../../platform/feature.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { DashboardService, type DashboardDeps } from './dashboard.service.js';

export function createDashboardModule(d: DashboardDeps) {
  const dashboard = new DashboardService(d);
  const feature: Feature = { name: 'dashboard', routes: [mount('/api/dashboard', dashboardRoutes, { dashboard })] };
  return { feature };
}
