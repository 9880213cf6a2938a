/**
 * Wallpaper endpoints under `/api/settings` (two public reads, an admin sync) and the public
 * file route `/app/wallpapers/:file`. Both plugins share one service per container, so the
 * single-flight fill is shared too.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.js';
import { NotFoundError } from '../../core/errors.js';
import { ErrorResponse } from '../../http/schemas.js';
import { WallpaperService } from './wallpapers.service.js';

const services = new WeakMap<Container, WallpaperService>();

function serviceFor(c: Container): WallpaperService {
  let s = services.get(c);
  if (!s) {
    const created = new WallpaperService({
      dir: path.join(c.config.dataDir, 'wallpapers'),
      sourceUrl: c.config.wallpaperSourceUrl,
      log: c.log,
    });
    services.set(c, (s = created));
    c.onClose(() => created.close());
  }
  return s;
}

const UrlList = Type.Object({ urls: Type.Array(Type.String()), count: Type.Integer() });

export const wallpapersRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const service = serviceFor(c);
  const tags = ['wallpapers'];

  app.get('/daily-wallpapers', { config: { public: true }, schema: { tags, response: { 200: UrlList } } }, async () =>
    service.listOrFill(),
  );

  app.post(
    '/daily-wallpapers/sync',
    {
      schema: {
        tags,
        response: {
          200: Type.Object({ urls: Type.Array(Type.String()), count: Type.Integer(), downloaded: Type.Integer() }),
          401: ErrorResponse,
          502: ErrorResponse,
        },
      },
    },
    async (req) => {
      const result = await service.sync();
      await c.audit.record(req.actor, 'sync_wallpapers', { type: 'wallpaper', detail: `downloaded=${result.downloaded}` });
      return result;
    },
  );

  app.get(
    '/daily-wallpaper',
    { config: { public: true }, schema: { tags, response: { 200: Type.Object({ url: Type.Union([Type.String(), Type.Null()]) }) } } },
    async () => service.today(),
  );
};

/** `/app/wallpapers/:file` (public): only `YYYYMMDD.jpg` names from the cache directory. */
export const wallpaperFilesRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const service = serviceFor(c);
  app.get(
    '/:file',
    {
      config: { public: true },
      schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) },
    },
    async (req, reply) => {
      const file = await service.filePath(req.params.file);
      if (!file) throw new NotFoundError('Wallpaper not found');
      return reply
        .type('image/jpeg')
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(fs.createReadStream(file));
    },
  );
};
