import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DashboardService } from './dashboard.service.js';
import { DashboardView } from './dashboard.schemas.js';

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['dashboard'],
        description: 'Servers by status, the active alerts (10 newest), the last 5 pushes and the retry jobs by status.',
        response: { 200: DashboardView },
      },
    },
    async () => dashboard.view(),
  );
};
