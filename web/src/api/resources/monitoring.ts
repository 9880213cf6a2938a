/**
 * Monitoring: every server's last agent reading with its recent points (one batch request), the
 * monitoring settings (alert thresholds, heartbeat timeout, notify_* switches) and the agent's
 * installation over SSH. Keys start with `monitoring`.
 */
import { queryOptions } from '@tanstack/react-query';
import type { InstallResult, MetricsView } from '@server/modules/agent/agent.schemas';
import type { PutSettingResponse, SettingView } from '@server/platform/settings/settings.schemas';
import { api } from '../client';

/** The heartbeat interval of the agent: a fresh reading every 30 s. */
export const METRICS_REFRESH_MS = 30_000;

export const monitoringQueries = {
  all: ['monitoring'] as const,
  metrics: (points = 30) =>
    queryOptions({
      queryKey: ['monitoring', 'metrics', points],
      queryFn: () => api.get<MetricsView>('/api/agent/metrics', { query: { points } }),
      refetchInterval: METRICS_REFRESH_MS,
    }),
  settings: () => queryOptions({ queryKey: ['monitoring', 'settings'], queryFn: () => api.get<SettingView[]>('/api/settings') }),
};

export const monitoringApi = {
  putSetting: (key: string, value: string) => api.put<PutSettingResponse>(`/api/settings/${encodeURIComponent(key)}`, { value }),
  installAgent: (serverId: number, apiBaseUrl?: string) =>
    api.post<InstallResult>(`/api/servers/${serverId}/install-agent`, apiBaseUrl ? { api_base_url: apiBaseUrl } : {}),
};
