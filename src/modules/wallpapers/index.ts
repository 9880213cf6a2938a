/** Daily wallpapers for the login page: cached in DATA_DIR, filled from the daily-image archive. */
import path from 'node:path';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { wallpaperFilesRoutes, wallpapersRoutes } from './wallpapers.routes.js';
import { WallpaperService } from './wallpapers.service.js';

export function createWallpapersModule(d: { dataDir: string; sourceUrl: string; audit: AuditService; log: Logger }) {
  const wallpapers = new WallpaperService({ dir: path.join(d.dataDir, 'wallpapers'), sourceUrl: d.sourceUrl, audit: d.audit, log: d.log });
  const feature: Feature = {
    name: 'wallpapers',
    routes: [mount('/api/settings', wallpapersRoutes, { wallpapers }), mount('/app/wallpapers', wallpaperFilesRoutes, { wallpapers })],
    perProcess: { start() {}, stop: () => wallpapers.close() },
  };
  return { wallpapers, feature };
}
