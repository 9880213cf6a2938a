/**
 * Remote files of one server: listing, file operations, single-file upload (SFTP, with byte
 * progress), the comparison with a staging file, and the diagnosis. Keys start with
 * `remote-files`; a listing is `['remote-files', serverId, 'list', path]`, so invalidating
 * `['remote-files', serverId]` refreshes every open directory of that server.
 */
import type { UploadResponse } from '@server/modules/remote/remote.schemas';
import { queryOptions } from '@tanstack/react-query';
import { upload, type UploadProgress } from '../client';
import { type Body, call } from '../typed';

export const remoteFileQueries = {
  all: ['remote-files'] as const,
  server: (serverId: number) => ['remote-files', serverId] as const,
  list: (serverId: number, path: string) =>
    queryOptions({
      queryKey: ['remote-files', serverId, 'list', path] as const,
      // A POST that only reads; each call is audited (browse_directory), so it is not refetched on focus.
      queryFn: ({ signal }) => call('POST /api/sync/browse', { body: { server_id: serverId, path }, signal }),
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    }),
  limits: () => queryOptions({ queryKey: ['remote-files', 'limits'] as const, queryFn: () => call('GET /api/sync/limits'), staleTime: 5 * 60_000 }),
  stagingDirs: () =>
    queryOptions({ queryKey: ['remote-files', 'staging-dirs'] as const, queryFn: () => call('GET /api/sync/staging-dirs'), staleTime: 30_000 }),
};

export type FileOperation = 'delete' | 'rename' | 'mkdir';

export const remoteFilesApi = {
  op: (body: Body<'POST /api/sync/file-ops'> & { operation: FileOperation }, idempotencyKey?: string) =>
    call('POST /api/sync/file-ops', { body, idempotencyKey }),
  upload: (serverId: number, remoteDir: string, file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) => {
    // Multipart (not in the typed map): fields before the file, so the service streams it straight to the server.
    const form = new FormData();
    form.append('server_id', String(serverId));
    form.append('remote_path', remoteDir);
    form.append('file', file, file.name);
    return upload<UploadResponse>('/api/sync/upload', form, onProgress, signal);
  },
  diff: (body: Body<'POST /api/sync/file-diff'>) => call('POST /api/sync/file-diff', { body }),
  diagnose: (body: Body<'POST /api/sync/diagnose'>) => call('POST /api/sync/diagnose', { body: { ...body, with_checks: true } }),
};
