/**
 * The staging area: its directories (with the ZIP each came from), browsing, previews, file
 * operations, source validation and bulk delete. Every query key starts with `staging`, so
 * invalidating `stagingQueries.all` refreshes every view of it.
 */
import { queryOptions } from '@tanstack/react-query';
import { type Body, call } from '../typed';

export const stagingQueries = {
  all: ['staging'] as const,
  dirs: () => queryOptions({ queryKey: ['staging', 'dirs'], queryFn: () => call('GET /api/sync/staging-dirs') }),
  browse: (path: string) => queryOptions({ queryKey: ['staging', 'browse', path], queryFn: () => call('POST /api/sync/browse-local', { body: { path } }) }),
  /** A preview is audited on the service: read once per open, never refetched in the background. */
  preview: (path: string) =>
    queryOptions({
      queryKey: ['staging', 'preview', path],
      queryFn: () => call('POST /api/sync/local-file-preview', { body: { path } }),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
};

const fileOp = (body: Body<'POST /api/sync/local-file-ops'>, idempotencyKey: string) => call('POST /api/sync/local-file-ops', { body, idempotencyKey });

export const stagingApi = {
  remove: (path: string, key: string) => fileOp({ path, operation: 'delete' }, key),
  rename: (path: string, newName: string, key: string) => fileOp({ path, operation: 'rename', new_name: newName }, key),
  /** Creates the directory `path` names (its parent must exist). */
  mkdir: (path: string, key: string) => fileOp({ path, operation: 'mkdir' }, key),
  validate: (path: string) => call('POST /api/sync/validate-source-path', { body: { path } }),
  bulkDelete: (body: Body<'POST /api/sync/staging-dirs/delete'>, idempotencyKey: string) => call('POST /api/sync/staging-dirs/delete', { body, idempotencyKey }),
};
