/**
 * Routes marked `config: { idempotent: true }` honour the `Idempotency-Key` header (see
 * IdempotencyService): a repeat of the same request by the same caller within ten minutes is
 * answered with the first answer, marked `Idempotent-Replayed: true`, and the handler does not
 * run again. Requests without the header run as usual.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { IdempotencyService } from '../platform/idempotency/idempotency.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honours the Idempotency-Key header. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency: { scope: string; key: string } | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The header as /docs shows it; its format is checked by the hook, with its own error code. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Optional, 1 to 128 visible ASCII characters, a fresh one per user action (a UUID). The same key from the same caller within 10 minutes returns the first answer again (header `Idempotent-Replayed: true`) and starts nothing; the same key with a different request is a 409 `idempotency_key_reused`; a malformed key is a 400 `idempotency_key_invalid`.',
    }),
  ),
});

/** A route option that may hold one hook or several, as a list. */
function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

export function installIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  app.decorateRequest('idempotency', null);

  // preHandler: after authentication (the caller is known) and validation (the body is final).
  const begin = async (req: FastifyRequest, reply: FastifyReply) => {
    const raw = req.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const out = await service.begin({
      scope: req.actor.username,
      key: raw,
      method: req.method,
      route: req.routeOptions.url ?? req.url,
      params: req.params,
      body: req.body,
    });
    if (out.kind === 'first') {
      req.idempotency = { scope: out.scope, key: out.key };
      return;
    }
    return reply
      .code(out.statusCode)
      .header('content-type', 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true')
      .send(out.response);
  };

  const finish = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const idem = req.idempotency;
    if (!idem) return payload;
    req.idempotency = null;
    await service.finish(idem.scope, idem.key, reply.statusCode, typeof payload === 'string' ? payload : JSON.stringify(payload ?? null));
    return payload;
  };

  // Only routes marked idempotent get the two hooks (ahead of their own): every other request,
  // most of the traffic, pays nothing for them. Set before the route is built.
  app.addHook('onRoute', (r) => {
    if (!r.config?.idempotent) return;
    r.preHandler = [begin, ...hookList(r.preHandler)] as typeof r.preHandler;
    r.onSend = [finish, ...hookList(r.onSend)] as typeof r.onSend;
  });
}
