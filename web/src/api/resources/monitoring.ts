/**
 * Monitoring: a page of servers with their last agent reading and recent points (filtered,
 * sorted and paged on the service), the monitoring settings (alert thresholds, heartbeat
 * timeout, notify_* switches) and the agent's installation over SSH. Keys start with `monitoring`.
 */
import type { MetricsQuery } from '@server/modules/agent/agent.schemas';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call, type Reply } from '../typed';

export type ServerMetrics = Reply<'GET /api/agent/metrics'>['items'][number];
export type SettingView = Reply<'GET /api/settings'>[number];

/** The heartbeat interval of the agent: a fresh reading every 30 s. */
export const METRICS_REFRESH_MS = 30_000;

export const monitoringQueries = {
  all: ['monitoring'] as const,
  metrics: (query: MetricsQuery) =>
    queryOptions({
      queryKey: ['monitoring', 'metrics', query],
      queryFn: () => call('GET /api/agent/metrics', { query }),
      refetchInterval: METRICS_REFRESH_MS,
      // The page shown stays while the next one (another sort, filter or page) loads.
      placeholderData: keepPreviousData,
    }),
  settings: () => queryOptions({ queryKey: ['monitoring', 'settings'], queryFn: () => call('GET /api/settings') }),
};

export const monitoringApi = {
  putSetting: (key: string, value: string) => call('PUT /api/settings/{key}', { params: { key }, body: { value } }),
  installAgent: (serverId: number, apiBaseUrl?: string) =>
    call('POST /api/servers/{id}/install-agent', { params: { id: serverId }, body: apiBaseUrl ? { api_base_url: apiBaseUrl } : {} }),
};
