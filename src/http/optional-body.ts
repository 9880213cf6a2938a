/**
 * A route whose JSON body is optional (an additive field on an endpoint the spec defines without
 * a body): a request without one is validated as `{}`, so old clients keep working and new ones
 * are still checked by the schema.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function optionalBody(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (req.body === undefined || req.body === null) req.body = {};
}
