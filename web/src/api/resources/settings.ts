/**
 * System settings: the stored values, the rules the service validates each key with (served by
 * `GET /api/settings/schema`, never copied here), per-key writes and the API key's reveal.
 */
import { queryOptions } from '@tanstack/react-query';
import { call, type Reply } from '../typed';

export type SettingsSchema = Reply<'GET /api/settings/schema'>;
export type SettingDescriptor = SettingsSchema['settings'][number];

export const settingsQueries = {
  /** Invalidate this to refresh every view of settings. */
  all: ['settings'] as const,
  list: () => queryOptions({ queryKey: ['settings', 'list'], queryFn: () => call('GET /api/settings') }),
  schema: () =>
    queryOptions({
      queryKey: ['settings', 'schema'],
      queryFn: () => call('GET /api/settings/schema'),
      // The rules change only with a new service version.
      staleTime: 10 * 60_000,
    }),
};

export const settingsApi = {
  put: (key: string, value: string) => call('PUT /api/settings/{key}', { params: { key }, body: { value } }),
  revealApiKey: (currentPassword: string) => call('POST /api/settings/api-key/reveal', { body: { current_password: currentPassword } }),
};
