/**
 * Remote files of one server: listing, file operations, single-file upload (SFTP, with byte
 * progress), the comparison with a staging file, and the diagnosis. Keys start with
 * `remote-files`; a listing is `['remote-files', serverId, 'list', path]`, so invalidating
 * `['remote-files', serverId]` refreshes every open directory of that server.
 */
import type {
  BrowseResponse, DiagnoseBody, DiagnoseResponse, FileDiffBody, FileDiffResponse, FileOpsResponse, UploadResponse,
} from '@server/modules/remote/remote.schemas';
import type { StagingDirList, SyncLimits } from '@server/modules/staging/staging-dirs.schemas';
import { queryOptions } from '@tanstack/react-query';
import { api, upload, type UploadProgress } from '../client';

export const remoteFileQueries = {
  all: ['remote-files'] as const,
  server: (serverId: number) => ['remote-files', serverId] as const,
  list: (serverId: number, path: string) =>
    queryOptions({
      queryKey: ['remote-files', serverId, 'list', path] as const,
      // A POST that only reads; each call is audited (browse_directory), so it is not refetched on focus.
      queryFn: ({ signal }) => api.post<BrowseResponse>('/api/sync/browse', { server_id: serverId, path }, { signal }),
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    }),
  limits: () => queryOptions({ queryKey: ['remote-files', 'limits'] as const, queryFn: () => api.get<SyncLimits>('/api/sync/limits'), staleTime: 5 * 60_000 }),
  stagingDirs: () =>
    queryOptions({ queryKey: ['remote-files', 'staging-dirs'] as const, queryFn: () => api.get<StagingDirList>('/api/sync/staging-dirs'), staleTime: 30_000 }),
};

export type FileOperation = 'delete' | 'rename' | 'mkdir';

export const remoteFilesApi = {
  op: (body: { server_id: number; operation: FileOperation; path: string; new_path?: string }, idempotencyKey?: string) =>
    api.post<FileOpsResponse>('/api/sync/file-ops', body, { idempotencyKey }),
  upload: (serverId: number, remoteDir: string, file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) => {
    // Fields before the file: the service streams the file straight to the server.
    const form = new FormData();
    form.append('server_id', String(serverId));
    form.append('remote_path', remoteDir);
    form.append('file', file, file.name);
    return upload<UploadResponse>('/api/sync/upload', form, onProgress, signal);
  },
  diff: (body: FileDiffBody) => api.post<FileDiffResponse>('/api/sync/file-diff', body),
  diagnose: (body: DiagnoseBody) => api.post<DiagnoseResponse>('/api/sync/diagnose', { ...body, with_checks: true }),
};
