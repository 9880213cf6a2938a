/**
 * Every call the console makes, typed with the server's own schemas: a changed API breaks this
 * build, not an operator's browser. Pages call these (through react-query), never fetch.
 */
import type { ActiveAlerts } from '@server/modules/alerts/active-alerts.schemas';
import type { AgentToken } from '@server/modules/agent/agent.schemas';
import type { ChangePasswordBody, FirstRunView, LoginBody, MeView, TokenPair } from '@server/modules/auth/auth.schemas';
import type { DashboardView } from '@server/modules/dashboard/dashboard.schemas';
import type { PresetView } from '@server/modules/presets/presets.schemas';
import type {
  BatchEventsView, BatchSummaryPage, BatchSummaryQuery, BatchView, CancelView, PreviewBody, PreviewView, SyncFilesBody,
} from '@server/modules/push/push.schemas';
import type { DiagnoseResponse, FileDiffBody, FileDiffResponse, VerifyBody, VerifyResponse } from '@server/modules/remote/remote.schemas';
import type { RetryJobView } from '@server/modules/retries/retries.schemas';
import type { FleetIds, FleetPage, FleetPageQuery, StatusCounts, TagCount } from '@server/modules/servers/fleet-query.schemas';
import type { CreateServerBody, ServerView, TestResult, UpdateServerBody } from '@server/modules/servers/servers.schemas';
import type { SshKeyPresetView } from '@server/modules/ssh-key-presets/ssh-key-presets.schemas';
import type { StagingDirList, SyncLimits } from '@server/modules/staging/staging-dirs.schemas';
import type { BrowseLocalResponse, UploadZipResponse, ValidateSourceResponse } from '@server/modules/staging/staging.schemas';
import type { DailyWallpaper } from '@server/modules/wallpapers/wallpapers.schemas';
import type { SettingView } from '@server/platform/settings/settings.schemas';
import { api, request, upload, type UploadProgress } from './client';

export type FleetFilter = Pick<FleetPageQuery, 'q' | 'tag' | 'status'>;

export const auth = {
  login: (body: LoginBody) => request<TokenPair>('POST', '/api/auth/login', { body, anonymous: true }),
  logout: (refreshToken: string) => request<void>('POST', '/api/auth/logout', { body: { refresh_token: refreshToken }, anonymous: true }),
  me: () => api.get<MeView>('/api/auth/me'),
  changePassword: (body: ChangePasswordBody) => api.post<{ success: boolean }>('/api/auth/change-password', body),
};

export const publicInfo = {
  dailyWallpaper: () => request<DailyWallpaper>('GET', '/api/settings/daily-wallpaper', { anonymous: true }),
  /** On a fresh install: where the first administrator's generated password is kept on the host. */
  firstRun: () => request<FirstRunView>('GET', '/api/auth/first-run', { anonymous: true }),
};

export const settings = {
  /** Every stored setting (an unset key is simply absent, where GET /:key would answer 404). */
  list: () => api.get<SettingView[]>('/api/settings'),
  get: (key: string) => api.get<SettingView>(`/api/settings/${encodeURIComponent(key)}`),
};

export const dashboard = {
  get: () => api.get<DashboardView>('/api/dashboard'),
  activeAlerts: (limit = 50) => api.get<ActiveAlerts>('/api/alert-history/active', { query: { limit } }),
};

export const servers = {
  search: (q: FleetPageQuery) => api.get<FleetPage>('/api/servers/search', { query: q }),
  ids: (f: FleetFilter) => api.get<FleetIds>('/api/servers/ids', { query: f }),
  tags: () => api.get<TagCount[]>('/api/servers/tags'),
  statusCounts: () => api.get<StatusCounts>('/api/servers/status-counts'),
  get: (id: number) => api.get<ServerView>(`/api/servers/${id}`),
  create: (body: CreateServerBody) => api.post<ServerView>('/api/servers', body),
  update: (id: number, body: UpdateServerBody) => api.put<ServerView>(`/api/servers/${id}`, body),
  remove: (id: number, idempotencyKey?: string) => api.del(`/api/servers/${id}`, { idempotencyKey }),
  test: (id: number) => api.post<TestResult>(`/api/servers/${id}/test`),
  forgetHostKey: (id: number) => api.post<ServerView>(`/api/servers/${id}/forget-host-key`),
  agentToken: (id: number) => api.post<AgentToken>(`/api/servers/${id}/agent-token`),
  diagnose: (id: number, targetPath?: string) => api.post<DiagnoseResponse>('/api/sync/diagnose', { server_id: id, target_path: targetPath || undefined }),
};

export const credentials = {
  passwordPresets: () => api.get<PresetView[]>('/api/presets'),
  sshKeyPresets: () => api.get<SshKeyPresetView[]>('/api/ssh-key-presets'),
};

export const staging = {
  dirs: () => api.get<StagingDirList>('/api/sync/staging-dirs'),
  limits: () => api.get<SyncLimits>('/api/sync/limits'),
  browse: (path: string) => api.post<BrowseLocalResponse>('/api/sync/browse-local', { path }),
  validate: (path: string) => api.post<ValidateSourceResponse>('/api/sync/validate-source-path', { path }),
  uploadZip: (file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<UploadZipResponse>('/api/sync/upload-zip', form, onProgress, signal);
  },
};

export const push = {
  start: (body: SyncFilesBody, idempotencyKey?: string) =>
    api.post<{ batch_id: string; status: 'running' }>('/api/sync/files', { ...body, async: true }, { idempotencyKey }),
  preview: (body: PreviewBody) => api.post<PreviewView>('/api/sync/preview', body),
  cancel: (batchId: string, idempotencyKey?: string) => api.post<CancelView>('/api/sync/cancel', { batch_id: batchId }, { idempotencyKey }),
  batch: (batchId: string) => api.get<BatchView>(`/api/sync/batches/${encodeURIComponent(batchId)}`),
  events: (batchId: string, after: number, limit = 1000) =>
    api.get<BatchEventsView>(`/api/sync/batches/${encodeURIComponent(batchId)}/events`, { query: { after, limit } }),
  summaries: (q: BatchSummaryQuery) => api.get<BatchSummaryPage>('/api/sync/batch-summaries', { query: q }),
  verify: (body: VerifyBody, idempotencyKey?: string) => api.post<VerifyResponse>('/api/sync/verify', body, { idempotencyKey }),
  diff: (body: FileDiffBody) => api.post<FileDiffResponse>('/api/sync/file-diff', body),
};

export const retries = {
  list: (limit = 200) => api.get<RetryJobView[]>('/api/retries', { query: { limit } }),
  retry: (id: number, idempotencyKey?: string) => api.post<RetryJobView>(`/api/retries/${id}/retry`, undefined, { idempotencyKey }),
  remove: (id: number) => api.del(`/api/retries/${id}`),
};
