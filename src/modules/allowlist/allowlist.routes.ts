/** `/api/settings/ip-allowlist...`: the login IP allowlist (manual entries, a subscription, a toggle). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UnprocessableError } from '../../core/errors.js';
import { ErrorResponse } from '../../http/schemas.js';
import {
  AllowlistStateSchema,
  CheckResponse,
  RefreshResponse,
  ValidateBody,
  ValidateResponse,
  ManualBody,
  ManualResponse,
  ParseSubscriptionBody,
  ParseSubscriptionResponse,
  RemoveQuery,
  RemoveResponse,
  SaveBody,
  SaveResponse,
  ToggleQuery,
  ToggleResponse,
  parseBoolParam,
} from './allowlist.schemas.js';
import type { AllowlistService } from './allowlist.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const allowlistRoutes: FastifyPluginAsyncTypebox<{ allowlist: AllowlistService }> = async (app, { allowlist: service }) => {
  const tags = ['ip-allowlist'];
  // Every write of the allowlist guards access (turning it off or widening it weakens it alike):
  // an administrator's, never the API key's. Reading it and parsing a subscription write nothing.
  const guarded = { adminOnly: true };

  app.get('/ip-allowlist', { schema: { tags, response: { 200: AllowlistStateSchema, 401: ErrorResponse } } }, async () =>
    service.state(),
  );

  // The caller's address as the login sees it (same trust of proxies), and the lists' verdict: the
  // console asks before turning the allowlist on, so nobody locks themselves out unwarned.
  app.get('/ip-allowlist/check', { schema: { tags, response: { 200: CheckResponse, 401: ErrorResponse } } }, async (req) =>
    service.check(req.actor.ip ?? ''),
  );

  // A batch judged line by line by the writes' own rule; stores nothing.
  app.post(
    '/ip-allowlist/validate',
    { schema: { tags, body: ValidateBody, response: { 200: ValidateResponse, 401: ErrorResponse } } },
    async (req) => service.validate(req.body.ips),
  );

  app.post(
    '/ip-allowlist/refresh',
    { config: guarded, schema: { tags, response: { 200: RefreshResponse, ...errors } } },
    async (req) => service.refreshNow(req.actor),
  );

  app.post(
    '/ip-allowlist/parse-subscription',
    { schema: { tags, body: ParseSubscriptionBody, response: { 200: ParseSubscriptionResponse, ...errors } } },
    async (req) => service.parseSubscription(req.actor, req.body.url),
  );

  app.post(
    '/ip-allowlist',
    { config: guarded, schema: { tags, body: SaveBody, response: { 200: SaveResponse, ...errors } } },
    async (req) => service.save(req.actor, req.body),
  );

  app.post(
    '/ip-allowlist/toggle',
    { config: guarded, schema: { tags, querystring: ToggleQuery, response: { 200: ToggleResponse, ...errors } } },
    async (req) => {
      const enabled = parseBoolParam(req.query.enabled);
      if (enabled === null) {
        throw new UnprocessableError('Validation failed: querystring.enabled must be a boolean', [
          { path: 'querystring.enabled', message: 'must be a boolean' },
        ]);
      }
      return service.toggle(req.actor, enabled);
    },
  );

  app.post(
    '/ip-allowlist/manual',
    { config: guarded, schema: { tags, body: ManualBody, response: { 200: ManualResponse, ...errors } } },
    async (req) => service.addManual(req.actor, req.body.ips),
  );

  app.delete(
    '/ip-allowlist/ip',
    { config: guarded, schema: { tags, querystring: RemoveQuery, response: { 200: RemoveResponse, ...errors } } },
    async (req) => service.removeIp(req.actor, req.query.ip),
  );
};
