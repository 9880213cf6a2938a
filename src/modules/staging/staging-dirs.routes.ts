import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StagingDirsService } from './staging-dirs.service.js';
import { StagingDirList, SyncLimits } from './staging-dirs.schemas.js';

export interface StagingDirsRoutesOptions {
  dirs: StagingDirsService;
  limits: SyncLimits;
}

/**
 * `GET /api/sync/staging-dirs`: the staging directories a push can start from.
 * `GET /api/sync/limits`: the upload limits, so the console shows them before a file is chosen.
 */
export const stagingDirsRoutes: FastifyPluginAsyncTypebox<StagingDirsRoutesOptions> = async (app, { dirs, limits }) => {
  app.get(
    '/staging-dirs',
    { schema: { tags: ['staging'], description: 'Staging directories, newest first (at most 500), with the ZIP each came from.', response: { 200: StagingDirList } } },
    async () => dirs.list(),
  );
  app.get(
    '/limits',
    { schema: { tags: ['staging'], description: 'Upload limits: ZIP size, inflated size and entries, files listed, single-file SFTP upload size.', response: { 200: SyncLimits } } },
    async () => limits,
  );
};
