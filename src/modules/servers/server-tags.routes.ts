import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../../http/schemas.js';
import { RenameTagBody, TagChangeResult, TagParams } from './server-tags.schemas.js';
import type { ServerTagsService } from './server-tags.service.js';

/** Tags across the fleet, under /api/servers/tags (static paths: never read as a server `{id}`). */
export const serverTagsRoutes: FastifyPluginAsyncTypebox<{ tagsService: ServerTagsService }> = async (app, { tagsService }) => {
  const tags = ['servers'];
  const errors = { 400: ErrorResponse, 404: ErrorResponse };

  app.post(
    '/tags/rename',
    {
      schema: {
        tags,
        description:
          'Renames a tag on every server carrying it (kept in place in each list). When servers already carry `to`, ' +
          '409 `tag_exists` unless `merge: true` (a server with both keeps `to` once). 400 `tag_invalid`, `tag_unchanged`; ' +
          '404 `tag_not_found`. Audited `rename_tag`.',
        body: RenameTagBody,
        response: { 200: TagChangeResult, 409: ErrorResponse, ...errors },
      },
    },
    async (req) => tagsService.rename(req.actor, req.body),
  );

  app.delete(
    '/tags/:tag',
    {
      schema: {
        tags,
        description: 'Removes a tag from every server carrying it (the servers stay). 404 `tag_not_found`. Audited `delete_tag`.',
        params: TagParams,
        response: { 200: TagChangeResult, ...errors },
      },
    },
    async (req) => tagsService.remove(req.actor, req.params.tag),
  );
};
