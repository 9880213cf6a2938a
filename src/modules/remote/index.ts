/**
 * Remote operations over SSH, under `/api/sync`: browse, file-ops, diagnose, file-diff, upload
 * (SFTP) and verify (SHA-256 of staging against the servers).
 */
import { mount, type Feature } from '../../platform/feature.js';
import { BrowseService } from './browse.service.js';
import { DiagnoseService } from './diagnose.service.js';
import { FileDiffService } from './file-diff.service.js';
import { FileOpsService } from './file-ops.service.js';
import type { RemoteDeps } from './remote-deps.js';
import { remoteRoutes } from './remote.routes.js';
import { UploadService } from './upload.service.js';
import { VerifyService } from './verify.service.js';

export function createRemoteModule(d: RemoteDeps & { uploadMaxBytes: number }) {
  const feature: Feature = {
    name: 'remote',
    routes: [
      mount('/api/sync', remoteRoutes, {
        browse: new BrowseService(d),
        fileOps: new FileOpsService(d),
        diagnose: new DiagnoseService(d),
        fileDiff: new FileDiffService(d),
        verify: new VerifyService(d),
        uploads: new UploadService({ ...d, maxBytes: d.uploadMaxBytes }),
        uploadMaxBytes: d.uploadMaxBytes,
      }),
    ],
  };
  return { feature };
}
