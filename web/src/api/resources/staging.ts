/**
 * The staging area: its directories (with the ZIP each came from), browsing, previews, file
 * operations, source validation and bulk delete. Every query key starts with `staging`, so
 * invalidating `stagingQueries.all` refreshes every view of it (the push flow's picker too).
 */
import type { StagingBulkDeleteBody, StagingBulkDeleteResult, StagingDirList } from '@server/modules/staging/staging-dirs.schemas';
import type { BrowseLocalResponse, FileOpResponse, PreviewResponse, ValidateSourceResponse } from '@server/modules/staging/staging.schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';

export const stagingQueries = {
  all: ['staging'] as const,
  dirs: () => queryOptions({ queryKey: ['staging', 'dirs'], queryFn: () => api.get<StagingDirList>('/api/sync/staging-dirs') }),
  browse: (path: string) =>
    queryOptions({ queryKey: ['staging', 'browse', path], queryFn: () => api.post<BrowseLocalResponse>('/api/sync/browse-local', { path }) }),
  /** A preview is audited on the service: read once per open, never refetched in the background. */
  preview: (path: string) =>
    queryOptions({
      queryKey: ['staging', 'preview', path],
      queryFn: () => api.post<PreviewResponse>('/api/sync/local-file-preview', { path }),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
};

const fileOp = (body: { path: string; operation: 'delete' | 'rename' | 'mkdir'; new_name?: string }, key: string) =>
  api.post<FileOpResponse>('/api/sync/local-file-ops', body, { idempotencyKey: key });

export const stagingApi = {
  remove: (path: string, key: string) => fileOp({ path, operation: 'delete' }, key),
  rename: (path: string, newName: string, key: string) => fileOp({ path, operation: 'rename', new_name: newName }, key),
  /** Creates the directory `path` names (its parent must exist). */
  mkdir: (path: string, key: string) => fileOp({ path, operation: 'mkdir' }, key),
  validate: (path: string) => api.post<ValidateSourceResponse>('/api/sync/validate-source-path', { path }),
  bulkDelete: (body: StagingBulkDeleteBody, key: string) =>
    api.post<StagingBulkDeleteResult>('/api/sync/staging-dirs/delete', body, { idempotencyKey: key }),
};
