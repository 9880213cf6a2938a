/** The login IP allowlist: its state, the caller's own verdict, line checks, writes and refresh. */
import { queryOptions } from '@tanstack/react-query';
import type {
  AllowlistState,
  CheckResponse,
  ManualResponse,
  ParseSubscriptionResponse,
  RefreshResponse,
  RemoveResponse,
  SaveBody,
  SaveResponse,
  ToggleResponse,
  ValidateResponse,
} from '@server/modules/allowlist/allowlist.schemas';
import { api } from '../client';

const BASE = '/api/settings/ip-allowlist';

export type { AllowlistState, CheckResponse, ValidateResponse };

export const allowlistQueries = {
  all: ['allowlist'] as const,
  state: () => queryOptions({ queryKey: ['allowlist', 'state'], queryFn: () => api.get<AllowlistState>(BASE) }),
  check: () => queryOptions({ queryKey: ['allowlist', 'check'], queryFn: () => api.get<CheckResponse>(`${BASE}/check`) }),
};

export const allowlistApi = {
  check: () => api.get<CheckResponse>(`${BASE}/check`),
  validate: (ips: string[]) => api.post<ValidateResponse>(`${BASE}/validate`, { ips }),
  addManual: (ips: string[]) => api.post<ManualResponse>(`${BASE}/manual`, { ips }),
  remove: (ip: string) => api.del<RemoveResponse>(`${BASE}/ip`, { query: { ip } }),
  toggle: (enabled: boolean) => api.post<ToggleResponse>(`${BASE}/toggle`, undefined, { query: { enabled: String(enabled) } }),
  preview: (url: string) => api.post<ParseSubscriptionResponse>(`${BASE}/parse-subscription`, { url }),
  save: (body: SaveBody) => api.post<SaveResponse>(BASE, body),
  refresh: () => api.post<RefreshResponse>(`${BASE}/refresh`),
};
