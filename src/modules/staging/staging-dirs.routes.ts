import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StagingDirsService } from './staging-dirs.service.js';
import { ErrorResponse } from '../../http/schemas.js';
import { StagingBulkDeleteBody, StagingBulkDeleteResult, StagingDirList, SyncLimits } from './staging-dirs.schemas.js';

export interface StagingDirsRoutesOptions {
  dirs: StagingDirsService;
  limits: SyncLimits;
}

/**
 * `GET /api/sync/staging-dirs`: the staging directories a push can start from.
 * `POST /api/sync/staging-dirs/delete`: removes whole staging directories by name or by age.
 * `GET /api/sync/limits`: the upload limits, so the console shows them before a file is chosen.
 */
export const stagingDirsRoutes: FastifyPluginAsyncTypebox<StagingDirsRoutesOptions> = async (app, { dirs, limits }) => {
  app.get(
    '/staging-dirs',
    { schema: { tags: ['staging'], description: 'Staging directories, newest first (at most 500), with the ZIP each came from.', response: { 200: StagingDirList } } },
    async () => dirs.list(),
  );
  app.post(
    '/staging-dirs/delete',
    {
      schema: {
        tags: ['staging'],
        description:
          'Deletes whole staging directories (and their origin records): `names` as listed by staging-dirs, or every one ' +
          'older than `older_than_days` (by the ZIP arrival, else the mtime). Exactly one of the two. Names that are not ' +
          'staging directories (symlinks, files, outside the prefix) come back in `missing` untouched. Audited per directory.',
        body: StagingBulkDeleteBody,
        response: { 200: StagingBulkDeleteResult, 400: ErrorResponse, 500: ErrorResponse },
      },
    },
    async (req) => dirs.bulkDelete(req.actor, req.body),
  );
  app.get(
    '/limits',
    { schema: { tags: ['staging'], description: 'Upload limits: ZIP size, inflated size and entries, files listed, single-file SFTP upload size.', response: { 200: SyncLimits } } },
    async () => limits,
  );
};
