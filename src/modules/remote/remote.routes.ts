/**
 * Remote operations over SSH: browse, file-ops, diagnose, file-diff, upload, verify.
 * Registered under /api/sync, a prefix other sync plugins share.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BadRequestError } from '../../core/errors.js';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import { ErrorResponse } from '../../http/schemas.js';
import type { BrowseService } from './browse.service.js';
import type { DiagnoseService } from './diagnose.service.js';
import type { FileDiffService } from './file-diff.service.js';
import type { FileOpsService } from './file-ops.service.js';
import {
  BrowseBody, BrowseResponse, DiagnoseBody, DiagnoseResponse, FileDiffBody, FileDiffResponse, FileOpsBody,
  FileOpsResponse, UploadResponse, VerifyBody, VerifyResponse,
} from './remote.schemas.js';
import type { UploadPart, UploadService } from './upload.service.js';
import type { VerifyService } from './verify.service.js';

export interface RemoteRoutesOptions {
  browse: BrowseService;
  fileOps: FileOpsService;
  diagnose: DiagnoseService;
  fileDiff: FileDiffService;
  verify: VerifyService;
  uploads: UploadService;
  uploadMaxBytes: number;
}

export const remoteRoutes: FastifyPluginAsyncTypebox<RemoteRoutesOptions> = async (app, o) => {
  const { browse, fileOps, diagnose, fileDiff, verify, uploads } = o;
  const tags = ['sync'];
  const e = ErrorResponse;

  app.post(
    '/browse',
    { schema: { tags, body: BrowseBody, response: { 200: BrowseResponse, 400: e, 404: e } } },
    async (req) => browse.browse(req.actor, req.body),
  );

  app.post(
    '/file-ops',
    {
      // A delete or rename sent twice (a double click, a repeated request) must not run twice.
      config: { idempotent: true },
      schema: { tags, body: FileOpsBody, headers: IdempotencyHeaders, response: { 200: FileOpsResponse, 400: e, 404: e, 409: e } },
    },
    async (req) => fileOps.run(req.actor, req.body),
  );

  app.post(
    '/diagnose',
    { schema: { tags, body: DiagnoseBody, response: { 200: DiagnoseResponse, 400: e, 404: e } } },
    async (req) => diagnose.diagnose(req.actor, req.body),
  );

  app.post(
    '/file-diff',
    { schema: { tags, body: FileDiffBody, response: { 200: FileDiffResponse, 400: e, 403: e, 404: e, 500: e } } },
    async (req) => fileDiff.diff(req.actor, req.body),
  );

  app.post(
    '/verify',
    { schema: { tags, body: VerifyBody, response: { 200: VerifyResponse, 400: e, 403: e } } },
    async (req) => verify.verify(req.actor, req.body),
  );

  // The multipart parser lives in its own scope: no other route of the app accepts multipart.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      // Keep the client's name whole: `/` and `\` become `_` rather than dropping the directories.
      preservePath: true,
      limits: { fileSize: o.uploadMaxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
    });
    // An upload refused part-way leaves the rest of its body unread; the socket cannot be reused.
    scope.addHook('onSend', async (req, reply, payload) => {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      return payload;
    });
    scope.post(
      '/upload',
      {
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description: 'Multipart fields `server_id`, `remote_path` (default /tmp) and `file`. Sent before the file, `server_id` and `remote_path` let it stream straight to the server; a file sent first waits in a private temp file.',
          response: { 200: UploadResponse, 400: e, 403: e, 404: e, 502: e },
        },
      },
      async (req) => {
        if (!req.isMultipart()) throw new BadRequestError('The upload must be sent as multipart/form-data', 'not_multipart');
        return uploads.upload(req.actor, req.parts() as AsyncIterable<UploadPart>);
      },
    );
  });
};
