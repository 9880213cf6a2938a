/**
 * Monitoring: every server's last agent reading with its recent points (one batch request), the
 * monitoring settings (alert thresholds, heartbeat timeout, notify_* switches) and the agent's
 * installation over SSH. Keys start with `monitoring`.
 */
import { queryOptions } from '@tanstack/react-query';
import { call, type Reply } from '../typed';

export type ServerMetrics = Reply<'GET /api/agent/metrics'>['items'][number];
export type SettingView = Reply<'GET /api/settings'>[number];

/** The heartbeat interval of the agent: a fresh reading every 30 s. */
export const METRICS_REFRESH_MS = 30_000;

export const monitoringQueries = {
  all: ['monitoring'] as const,
  metrics: (points = 30) =>
    queryOptions({
      queryKey: ['monitoring', 'metrics', points],
      queryFn: () => call('GET /api/agent/metrics', { query: { points } }),
      refetchInterval: METRICS_REFRESH_MS,
    }),
  settings: () => queryOptions({ queryKey: ['monitoring', 'settings'], queryFn: () => call('GET /api/settings') }),
};

export const monitoringApi = {
  putSetting: (key: string, value: string) => call('PUT /api/settings/{key}', { params: { key }, body: { value } }),
  installAgent: (serverId: number, apiBaseUrl?: string) =>
    call('POST /api/servers/{id}/install-agent', { params: { id: serverId }, body: apiBaseUrl ? { api_base_url: apiBaseUrl } : {} }),
};
