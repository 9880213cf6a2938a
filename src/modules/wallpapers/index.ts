/** Daily wallpapers for the login page: cached in DATA_DIR, filled from the daily-image archive. */
import path from 'node:path';
import { SafeFetcher } from '../../adapters/http/safe-fetch.js';
import type { Logger } from '../../core/logger.js';
import type { HostResolver } from '../../core/network.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { wallpaperFilesRoutes, wallpapersRoutes } from './wallpapers.routes.js';
import { WallpaperService } from './wallpapers.service.js';

export interface WallpapersModuleDeps {
  dataDir: string;
  sourceUrl: string;
  audit: AuditService;
  log: Logger;
  resolver: HostResolver;
  /** Test-only: the archive and its images may be on loopback (other private ranges never). */
  allowPrivateFetch: boolean;
}

export function createWallpapersModule(d: WallpapersModuleDeps) {
  const fetcher = new SafeFetcher({ resolve: d.resolver, allowLoopback: d.allowPrivateFetch, label: 'Wallpaper' });
  const wallpapers = new WallpaperService({ dir: path.join(d.dataDir, 'wallpapers'), sourceUrl: d.sourceUrl, audit: d.audit, log: d.log, fetcher });
  const feature: Feature = {
    name: 'wallpapers',
    routes: [mount('/api/settings', wallpapersRoutes, { wallpapers }), mount('/app/wallpapers', wallpaperFilesRoutes, { wallpapers })],
  };
  return { wallpapers, feature };
}
