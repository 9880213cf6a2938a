/** The login IP allowlist: its state, the caller's own verdict, line checks, writes and refresh. */
import { queryOptions } from '@tanstack/react-query';
import { type Body, call, type Reply } from '../typed';

export type AllowlistState = Reply<'GET /api/settings/ip-allowlist'>;
export type CheckResponse = Reply<'GET /api/settings/ip-allowlist/check'>;
export type ValidateResponse = Reply<'POST /api/settings/ip-allowlist/validate'>;

export const allowlistQueries = {
  all: ['allowlist'] as const,
  state: () => queryOptions({ queryKey: ['allowlist', 'state'], queryFn: () => call('GET /api/settings/ip-allowlist') }),
  check: () => queryOptions({ queryKey: ['allowlist', 'check'], queryFn: () => call('GET /api/settings/ip-allowlist/check') }),
};

export const allowlistApi = {
  check: () => call('GET /api/settings/ip-allowlist/check'),
  validate: (ips: string[]) => call('POST /api/settings/ip-allowlist/validate', { body: { ips } }),
  addManual: (ips: string[]) => call('POST /api/settings/ip-allowlist/manual', { body: { ips } }),
  remove: (ip: string) => call('DELETE /api/settings/ip-allowlist/ip', { query: { ip } }),
  toggle: (enabled: boolean) => call('POST /api/settings/ip-allowlist/toggle', { query: { enabled } }),
  preview: (url: string) => call('POST /api/settings/ip-allowlist/parse-subscription', { body: { url } }),
  save: (body: Body<'POST /api/settings/ip-allowlist'>) => call('POST /api/settings/ip-allowlist', { body }),
  refresh: () => call('POST /api/settings/ip-allowlist/refresh'),
};
