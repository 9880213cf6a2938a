/**
 * System settings: the stored values, the rules the service validates each key with (served by
 * `GET /api/settings/schema`, never copied here), per-key writes and the API key's reveal.
 */
import { queryOptions } from '@tanstack/react-query';
import type { PutSettingResponse, RevealResponse, SettingView, SettingsSchemaResponse } from '@server/platform/settings/settings.schemas';
import { api } from '../client';

export type SettingsSchema = SettingsSchemaResponse;
export type SettingDescriptor = SettingsSchemaResponse['settings'][number];

export const settingsQueries = {
  /** Invalidate this to refresh every view of settings. */
  all: ['settings'] as const,
  list: () => queryOptions({ queryKey: ['settings', 'list'], queryFn: () => api.get<SettingView[]>('/api/settings') }),
  schema: () =>
    queryOptions({
      queryKey: ['settings', 'schema'],
      queryFn: () => api.get<SettingsSchemaResponse>('/api/settings/schema'),
      // The rules change only with a new service version.
      staleTime: 10 * 60_000,
    }),
};

export const settingsApi = {
  put: (key: string, value: string) => api.put<PutSettingResponse>(`/api/settings/${encodeURIComponent(key)}`, { value }),
  revealApiKey: (currentPassword: string) =>
    api.post<RevealResponse>('/api/settings/api-key/reveal', { current_password: currentPassword }),
};
