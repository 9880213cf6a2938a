import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StagingDirsService } from './staging-dirs.service.js';
import { StagingDirList } from './staging-dirs.schemas.js';

/** `GET /api/sync/staging-dirs`: the staging directories a push can start from. */
export const stagingDirsRoutes: FastifyPluginAsyncTypebox<{ dirs: StagingDirsService }> = async (app, { dirs }) => {
  app.get(
    '/staging-dirs',
    { schema: { tags: ['staging'], description: 'Staging directories, newest first (at most 500).', response: { 200: StagingDirList } } },
    async () => dirs.list(),
  );
};
