/**
 * The calls of the console's first pages, each through `call()` (typed by the generated route
 * map: a changed API breaks this build, not an operator's browser). Login, logout and the public
 * sign-in page calls go without a token; uploads report bytes sent. Pages call these (through
 * react-query), never fetch; newer areas keep theirs in `resources/<area>.ts`.
 */
import type { ChangePasswordBody, FirstRunView, LoginBody, TokenPair } from '@server/modules/auth/auth.schemas';
import type { BatchSummaryQuery, PreviewBody, SyncFilesBody } from '@server/modules/push/push.schemas';
import type { FileDiffBody, VerifyBody } from '@server/modules/remote/remote.schemas';
import type { FleetPageQuery } from '@server/modules/servers/fleet-query.schemas';
import type { CreateServerBody, UpdateServerBody } from '@server/modules/servers/servers.schemas';
import type { UploadZipResponse } from '@server/modules/staging/staging.schemas';
import type { DailyWallpaper } from '@server/modules/wallpapers/wallpapers.schemas';
import { request, upload, type UploadProgress } from './client';
import { call } from './typed';

export type FleetFilter = Pick<FleetPageQuery, 'q' | 'tag' | 'status'>;

export const auth = {
  login: (body: LoginBody) => request<TokenPair>('POST', '/api/auth/login', { body, anonymous: true }),
  logout: (refreshToken: string) => request<void>('POST', '/api/auth/logout', { body: { refresh_token: refreshToken }, anonymous: true }),
  me: () => call('GET /api/auth/me'),
  changePassword: (body: ChangePasswordBody) => call('POST /api/auth/change-password', { body }),
};

export const publicInfo = {
  dailyWallpaper: () => request<DailyWallpaper>('GET', '/api/settings/daily-wallpaper', { anonymous: true }),
  /** On a fresh install: where the first administrator's generated password is kept on the host. */
  firstRun: () => request<FirstRunView>('GET', '/api/auth/first-run', { anonymous: true }),
};

export const settings = {
  /** Every stored setting (an unset key is simply absent, where GET /:key would answer 404). */
  list: () => call('GET /api/settings'),
  get: (key: string) => call('GET /api/settings/{key}', { params: { key } }),
};

export const dashboard = {
  get: () => call('GET /api/dashboard'),
  activeAlerts: (limit = 50) => call('GET /api/alert-history/active', { query: { limit } }),
};

export const servers = {
  search: (q: FleetPageQuery) => call('GET /api/servers/search', { query: q }),
  ids: (f: FleetFilter) => call('GET /api/servers/ids', { query: f }),
  tags: () => call('GET /api/servers/tags'),
  statusCounts: () => call('GET /api/servers/status-counts'),
  get: (id: number) => call('GET /api/servers/{id}', { params: { id } }),
  create: (body: CreateServerBody) => call('POST /api/servers', { body }),
  update: (id: number, body: UpdateServerBody) => call('PUT /api/servers/{id}', { params: { id }, body }),
  remove: (id: number, idempotencyKey?: string) => call('DELETE /api/servers/{id}', { params: { id }, idempotencyKey }),
  test: (id: number) => call('POST /api/servers/{id}/test', { params: { id } }),
  forgetHostKey: (id: number) => call('POST /api/servers/{id}/forget-host-key', { params: { id } }),
  agentToken: (id: number) => call('POST /api/servers/{id}/agent-token', { params: { id } }),
  diagnose: (id: number, targetPath?: string) => call('POST /api/sync/diagnose', { body: { server_id: id, target_path: targetPath || undefined } }),
};

export const credentials = {
  passwordPresets: () => call('GET /api/presets'),
  sshKeyPresets: () => call('GET /api/ssh-key-presets'),
};

export const staging = {
  dirs: () => call('GET /api/sync/staging-dirs'),
  limits: () => call('GET /api/sync/limits'),
  browse: (path: string) => call('POST /api/sync/browse-local', { body: { path } }),
  validate: (path: string) => call('POST /api/sync/validate-source-path', { body: { path } }),
  uploadZip: (file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<UploadZipResponse>('/api/sync/upload-zip', form, onProgress, signal);
  },
};

export const push = {
  start: (body: SyncFilesBody, idempotencyKey?: string) =>
    // With async the service answers 202 {batch_id, status: 'running'} at once.
    call('POST /api/sync/files', { body: { ...body, async: true }, idempotencyKey }).then((r) => ({ batch_id: r.batch_id, status: 'running' as const })),
  preview: (body: PreviewBody) => call('POST /api/sync/preview', { body }),
  cancel: (batchId: string, idempotencyKey?: string) => call('POST /api/sync/cancel', { body: { batch_id: batchId }, idempotencyKey }),
  batch: (batchId: string) => call('GET /api/sync/batches/{batch_id}', { params: { batch_id: batchId } }),
  events: (batchId: string, after: number, limit = 1000) =>
    call('GET /api/sync/batches/{batch_id}/events', { params: { batch_id: batchId }, query: { after, limit } }),
  summaries: (q: BatchSummaryQuery) => call('GET /api/sync/batch-summaries', { query: q }),
  verify: (body: VerifyBody, idempotencyKey?: string) => call('POST /api/sync/verify', { body, idempotencyKey }),
  diff: (body: FileDiffBody) => call('POST /api/sync/file-diff', { body }),
};

export const retries = {
  list: (limit = 200) => call('GET /api/retries', { query: { limit } }),
  retry: (id: number, idempotencyKey?: string) => call('POST /api/retries/{id}/retry', { params: { id }, idempotencyKey }),
  remove: (id: number) => call('DELETE /api/retries/{id}', { params: { id } }),
};
