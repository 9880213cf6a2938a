/**
 * Wallpaper endpoints under `/api/settings` (two public reads, an admin sync) and the public
 * file route `/app/wallpapers/:file`. Both plugins get the same service, so the single-flight
 * fill is shared too.
 */
import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../core/errors.js';
import { ErrorResponse } from '../../http/schemas.js';
import type { WallpaperService } from './wallpapers.service.js';
import { DailyWallpaper, WallpaperFileParams, WallpaperList, WallpaperSync } from './wallpapers.schemas.js';

export const wallpapersRoutes: FastifyPluginAsyncTypebox<{ wallpapers: WallpaperService }> = async (app, { wallpapers: service }) => {
  const tags = ['wallpapers'];

  app.get('/daily-wallpapers', { config: { public: true }, schema: { tags, response: { 200: WallpaperList } } }, async () =>
    service.listOrFill(),
  );

  app.post(
    '/daily-wallpapers/sync',
    {
      schema: {
        tags,
        response: {
          200: WallpaperSync,
          401: ErrorResponse,
          502: ErrorResponse,
        },
      },
    },
    async (req) => service.syncBy(req.actor),
  );

  app.get(
    '/daily-wallpaper',
    { config: { public: true }, schema: { tags, response: { 200: DailyWallpaper } } },
    async () => service.today(),
  );
};

/** `/app/wallpapers/:file` (public): only `YYYYMMDD.jpg` names from the cache directory, served as the image type their bytes show. */
export const wallpaperFilesRoutes: FastifyPluginAsyncTypebox<{ wallpapers: WallpaperService }> = async (
  app,
  { wallpapers: service },
) => {
  app.get(
    '/:file',
    {
      config: { public: true },
      schema: { hide: true, params: WallpaperFileParams },
    },
    async (req, reply) => {
      const file = await service.file(req.params.file);
      if (!file) throw new NotFoundError('Wallpaper not found', 'wallpaper_not_found');
      return reply
        .type(file.type)
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(fs.createReadStream(file.path));
    },
  );
};
