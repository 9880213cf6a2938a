import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { PushService } from './push.service.js';
import { ErrorResponse } from '../../http/schemas.js';
import { IdempotencyHeaders } from '../../http/idempotency.js';
import {
  BatchAccepted, BatchEventsQuery, BatchEventsView, BatchListQuery, BatchSummaryPage, BatchSummaryQuery, BatchParams, BatchView, CancelBody, CancelView, PreviewBody, PreviewView, SyncFilesBody,
} from './push.schemas.js';

/** Push routes under /api/sync (other plugins share the prefix): files, preview, cancel, batches. */
export const pushRoutes: FastifyPluginAsyncTypebox<{ push: PushService }> = async (app, { push }) => {
  const tags = ['push'];

  app.post(
    '/files',
    {
      config: { idempotent: true },
      schema: {
        tags,
        description: [
          'Pushes a staged directory to servers with rsync over SSH; `async: true` answers 202 at once, else 200 with the finished batch.',
          '',
          '**Sent once.** With an `Idempotency-Key` header, the same caller repeating the key within 10 minutes gets the first answer again (the same `batch_id`) and no new batch starts; two racing requests with one key make exactly one batch. A synchronous repeat waits up to 30 s for the first answer, then gets 409 `idempotency_key_in_progress`.',
          '',
          '**One writer per target.** While a batch or retry job writes a server\'s target directory, no other push may write it, nor a directory nested in it or containing it (`/srv` and `/srv/app` overlap; paths compare after dropping `//`, `.` and trailing slashes). A batch claims its servers\' targets when it is accepted and releases each when that server\'s transfer ends. A server whose target is busy is not queued: its result is `failed` with `error_code: "target_busy"` and an `error` naming the holder (`target /srv/app is being written by batch 1a2b…`), and it gets no retry job. The other servers of the request run. A retry job that finds its target busy waits for its next back-off step without using an attempt. Claims of a crashed process expire with its lease (30 s).',
        ].join('\n'),
        headers: IdempotencyHeaders,
        body: SyncFilesBody,
        response: { 200: BatchView, 202: BatchAccepted, 400: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const out = await push.start(req.actor, req.body);
      if (out.async) return reply.code(202).send({ batch_id: out.batch_id, status: 'running' as const });
      return reply.code(200).send(out.batch);
    },
  );

  app.post(
    '/preview',
    {
      schema: {
        tags,
        body: PreviewBody,
        response: { 200: PreviewView, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => push.preview(req.actor, req.body),
  );

  app.post(
    '/cancel',
    { schema: { tags, body: CancelBody, response: { 200: CancelView, 503: ErrorResponse } } },
    async (req) => push.cancel(req.actor, req.body.batch_id),
  );

  app.get(
    '/batches',
    { schema: { tags, querystring: BatchListQuery, response: { 200: Type.Array(BatchView) } } },
    async (req) => push.listBatches(req.query.limit ?? 20),
  );

  app.get(
    '/batch-summaries',
    {
      schema: {
        tags,
        description: 'Batches without their per-server results, newest first, with a total for paging.',
        querystring: BatchSummaryQuery,
        response: { 200: BatchSummaryPage },
      },
    },
    async (req) => push.summaries(req.query),
  );

  app.get(
    '/batches/:batch_id/events',
    {
      schema: {
        tags,
        description: 'The live messages of a batch after `after` (a seq), oldest first: what a page that reconnects or opens the batch later missed.',
        params: BatchParams,
        querystring: BatchEventsQuery,
        response: { 200: BatchEventsView, 404: ErrorResponse },
      },
    },
    async (req) => push.eventsOf(req.params.batch_id, req.query.after ?? 0, req.query.limit ?? 1000),
  );

  app.get(
    '/batches/:batch_id',
    { schema: { tags, params: BatchParams, response: { 200: BatchView, 404: ErrorResponse } } },
    async (req) => push.getBatch(req.params.batch_id),
  );
};
