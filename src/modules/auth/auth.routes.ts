import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthService } from './auth.service.js';
import type { RefreshSessions } from './refresh-sessions.js';
import { requireAdmin } from '../../http/request-context.js';
import { ErrorResponse } from '../../http/schemas.js';
import { toAdminView } from '../admins/index.js';
import {
  FirstRunView,
  MeView,
  ChangePasswordBody,
  LoginBody,
  RefreshBody,
  SuccessSchema,
  TokenPairSchema,
  TotpDisableBody,
  TotpEnableBody,
} from './auth.schemas.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; sessions: RefreshSessions }> = async (
  app,
  { auth, sessions },
) => {
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };
  // Passwords and TOTP belong to administrators: the API key is refused (403).
  const adminOnly = { adminOnly: true };

  app.post(
    '/login',
    { config: { public: true }, schema: { tags: ['auth'], body: LoginBody, response: { 200: TokenPairSchema, ...errors } } },
    async (req) => auth.login(req.body, req.actor.ip ?? ''),
  );

  // Public and cheap (one stat): the login page of a fresh install says where the password is.
  app.get(
    '/first-run',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        security: [],
        description: 'Where the generated password of the first administrator is kept on the host, until that administrator first logs in.',
        response: { 200: FirstRunView },
      },
    },
    async () => auth.firstRun(),
  );

  app.post(
    '/refresh',
    { config: { public: true }, schema: { tags: ['auth'], body: RefreshBody, response: { 200: TokenPairSchema, ...errors } } },
    async (req) => sessions.refresh(req.body.refresh_token, req.actor.ip ?? ''),
  );

  // Public like refresh: the refresh token is the credential, and an expired access token must
  // not stop a client from ending its session.
  app.post(
    '/logout',
    {
      config: { public: true },
      schema: { tags: ['auth'], body: RefreshBody, response: { 204: Type.Null(), 401: ErrorResponse } },
    },
    async (req, reply) => {
      await sessions.logout(req.body.refresh_token, req.actor.ip ?? '');
      return reply.code(204).send(null);
    },
  );

  app.get('/me', { schema: { tags: ['auth'], response: { 200: MeView, 401: ErrorResponse } } }, async (req) =>
    req.admin
      ? toAdminView(req.admin)
      : { id: 0, username: req.actor.username, totp_enabled: false, created_at: null },
  );

  app.post(
    '/change-password',
    { config: adminOnly, schema: { tags: ['auth'], body: ChangePasswordBody, response: { 200: SuccessSchema, ...errors } } },
    async (req) => {
      await auth.changePassword(requireAdmin(req), req.actor, req.body.current_password, req.body.new_password);
      return { success: true };
    },
  );

  app.post(
    '/sign-out-others',
    {
      config: adminOnly,
      schema: {
        tags: ['auth'],
        description:
          "Ends every other session of the calling administrator at once (their access and refresh tokens are refused, live sockets close). The caller's own tokens are replaced too: it continues with the pair answered here.",
        response: { 200: TokenPairSchema, ...errors },
      },
    },
    async (req) => auth.signOutOthers(requireAdmin(req), req.actor),
  );

  app.post(
    '/totp/setup',
    {
      config: adminOnly,
      schema: {
        tags: ['auth'],
        response: { 200: Type.Object({ secret: Type.String(), otpauth_url: Type.String() }), ...errors },
      },
    },
    async (req) => auth.totpSetup(requireAdmin(req), req.actor),
  );

  app.post(
    '/totp/enable',
    {
      config: adminOnly,
      schema: {
        tags: ['auth'],
        body: TotpEnableBody,
        response: { 200: SuccessSchema, ...errors },
      },
    },
    async (req) => {
      await auth.totpEnable(requireAdmin(req), req.actor, req.body.code, req.body.current_password);
      return { success: true };
    },
  );

  app.post(
    '/totp/disable',
    {
      config: adminOnly,
      schema: {
        tags: ['auth'],
        body: TotpDisableBody,
        response: { 200: SuccessSchema, ...errors },
      },
    },
    async (req) => {
      await auth.totpDisable(requireAdmin(req), req.actor, req.body.current_password);
      return { success: true };
    },
  );
};
