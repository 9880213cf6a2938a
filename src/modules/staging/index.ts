/**
 * The local staging area (`STAGING_PREFIX`, `/tmp/svc_upload_` by default): ZIP uploads extracted
 * into it, browsing and editing it, and the rule every push source obeys (`paths`: inside
 * staging once symlinks and `..` are resolved).
 */
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import { stagingDirsRoutes } from './staging-dirs.routes.js';
import { StagingDirsService } from './staging-dirs.service.js';
import { StagingPaths } from './staging-paths.js';
import { stagingRoutes } from './staging.routes.js';
import { StagingService } from './staging.service.js';
import { StatWorker } from '../../adapters/fs/stat-worker.js';
import { ZIP_LIST_LIMIT, ZIP_MAX_ENTRIES, ZipUploadService, type ZipUploadSettings } from './zip-upload.service.js';

export type { StagingPaths };

export interface StagingModuleDeps {
  prefix: string;
  audit: AuditService;
  log: Logger;
  /** Where the `zip_name_encoding` setting is read, at each upload. */
  settings: ZipUploadSettings;
  zipMaxBytes: number;
  zipMaxUncompressed: number;
  /** The SFTP single-file limit (enforced by the remote module), shown beside the ZIP limits. */
  uploadMaxBytes: number;
}

export function createStagingModule(d: StagingModuleDeps) {
  const paths = new StagingPaths(d.prefix);
  const statWorker = new StatWorker();
  const staging = new StagingService(paths, d.audit, statWorker);
  const zips = new ZipUploadService(paths, d.audit, d.log, d.settings, { maxBytes: d.zipMaxBytes, maxUncompressed: d.zipMaxUncompressed });
  const feature: Feature = {
    name: 'staging',
    routes: [
      mount('/api/sync', stagingRoutes, { staging, zips, zipMaxBytes: d.zipMaxBytes }),
      mount('/api/sync', stagingDirsRoutes, {
        dirs: new StagingDirsService(paths, d.audit),
        limits: {
          zip_max_bytes: d.zipMaxBytes,
          zip_max_uncompressed: d.zipMaxUncompressed,
          zip_max_entries: ZIP_MAX_ENTRIES,
          zip_listing_max: ZIP_LIST_LIMIT,
          upload_max_bytes: d.uploadMaxBytes,
        },
      }),
    ],
    perProcess: {
      // A process killed mid-upload leaves a work directory or scratch file (never a staging
      // directory): whoever starts next removes it.
      async start() {
        const removed = await paths.sweepAbandoned().catch((err: unknown) => {
          d.log.warn({ err }, 'abandoned uploads not swept');
          return [];
        });
        if (removed.length) d.log.warn({ removed }, 'removed uploads abandoned by a stopped process');
      },
      stop: () => statWorker.close(),
    },
  };
  return { paths, feature };
}
