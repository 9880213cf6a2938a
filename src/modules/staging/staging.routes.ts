/**
 * The staging routes, registered under `/api/sync` next to other modules' sync routes:
 * only these five paths belong here.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BrowseLocalResponse,
  ErrorResponse,
  FileOpBody,
  FileOpResponse,
  PathBody,
  PreviewResponse,
  UploadZipResponse,
  ValidateSourceResponse,
} from './staging.schemas.js';
import type { StagingService } from './staging.service.js';
import type { ZipUploadService } from './zip-upload.service.js';

export interface StagingRoutesOptions {
  staging: StagingService;
  zips: ZipUploadService;
  zipMaxBytes: number;
}

export const stagingRoutes: FastifyPluginAsyncTypebox<StagingRoutesOptions> = async (app, { staging, zips, zipMaxBytes }) => {

  // Scoped to this plugin: other modules at /api/sync register their own multipart limits.
  await app.register(multipart, {
    limits: { fileSize: zipMaxBytes, files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024 },
  });

  const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse, 507: ErrorResponse };
  const tags = ['staging'];

  app.post(
    '/browse-local',
    { schema: { tags, body: PathBody, response: { 200: BrowseLocalResponse, ...errors } } },
    async (req) => staging.browseLocal(req.actor, req.body.path),
  );

  app.post(
    '/local-file-ops',
    {
      schema: {
        tags,
        description:
          'delete | rename (`new_name`, a sibling) | mkdir (creates the directory `path` names; its parent must exist, ' +
          '400 path_exists when taken; audited `local_file_mkdir`). Every path must resolve inside staging.',
        body: FileOpBody,
        response: { 200: FileOpResponse, ...errors },
      },
    },
    async (req) => staging.fileOp(req.actor, req.body),
  );

  app.post(
    '/local-file-preview',
    { schema: { tags, body: PathBody, response: { 200: PreviewResponse, ...errors } } },
    async (req) => staging.preview(req.actor, req.body.path),
  );

  app.post(
    '/validate-source-path',
    { schema: { tags, body: PathBody, response: { 200: ValidateSourceResponse, ...errors } } },
    async (req) => staging.validateSourcePath(req.actor, req.body.path),
  );

  app.post(
    '/upload-zip',
    { schema: { tags, consumes: ['multipart/form-data'], response: { 200: UploadZipResponse, ...errors } } },
    async (req) =>
      zips.upload(req.actor, async () => {
        const part = await req.file();
        return part && { fieldname: part.fieldname, filename: part.filename, stream: part.file };
      }),
  );
};
