/**
 * Remote operations over SSH (spec §A): browse, file-ops, diagnose, file-diff, upload, verify.
 * Registered under /api/sync, a prefix other sync plugins share.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.js';
import { BadRequestError } from '../../core/errors.js';
import { ErrorResponse } from '../../http/schemas.js';
import { BrowseService } from './browse.service.js';
import { DiagnoseService } from './diagnose.service.js';
import { FileDiffService } from './file-diff.service.js';
import { FileOpsService } from './file-ops.service.js';
import type { RemoteDeps } from './remote-deps.js';
import {
  BrowseBody, BrowseResponse, DiagnoseBody, DiagnoseResponse, FileDiffBody, FileDiffResponse, FileOpsBody,
  FileOpsResponse, UploadResponse, VerifyBody, VerifyResponse,
} from './remote.schemas.js';
import { UploadService, type UploadPart } from './upload.service.js';
import { VerifyService } from './verify.service.js';

export const remoteRoutes: FastifyPluginAsyncTypebox<{ c: Container }> = async (app, { c }) => {
  const deps: RemoteDeps = { servers: c.servers, ssh: c.ssh, audit: c.audit, staging: c.staging };
  const browse = new BrowseService(deps);
  const fileOps = new FileOpsService(deps);
  const diagnose = new DiagnoseService(deps);
  const fileDiff = new FileDiffService(deps);
  const verify = new VerifyService(deps);
  const uploads = new UploadService({ ...deps, maxBytes: c.config.uploadMaxBytes });
  const tags = ['sync'];
  const e = ErrorResponse;

  app.post(
    '/browse',
    { schema: { tags, body: BrowseBody, response: { 200: BrowseResponse, 400: e, 404: e } } },
    async (req) => browse.browse(req.actor, req.body),
  );

  app.post(
    '/file-ops',
    { schema: { tags, body: FileOpsBody, response: { 200: FileOpsResponse, 400: e, 404: e } } },
    async (req) => fileOps.run(req.actor, req.body),
  );

  app.post(
    '/diagnose',
    { schema: { tags, body: DiagnoseBody, response: { 200: DiagnoseResponse, 400: e, 404: e } } },
    async (req) => diagnose.diagnose(req.actor, req.body.server_id, req.body.target_path),
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
      // Keep the client's name whole: the spec turns `/` and `\` into `_` rather than dropping the directories.
      preservePath: true,
      limits: { fileSize: c.config.uploadMaxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
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
        if (!req.isMultipart()) throw new BadRequestError('The upload must be sent as multipart/form-data');
        return uploads.upload(req.actor, req.parts() as AsyncIterable<UploadPart>);
      },
    );
  });
};
