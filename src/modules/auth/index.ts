/**
 * Login, tokens and the checks before credentials (allowlist, lockout), and `/api/auth`.
 * `auth.authenticate(token)` is what the request hook and the live socket use.
 */
import type { Kysely } from 'kysely';
import type { Cache } from '../../adapters/cache/cache.js';
import type { Cipher } from '../../core/crypto.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../db/types.js';
import type { HostResolver } from '../../core/network.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { mount, type Feature } from '../../platform/feature.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { AdminLookup, AdminsRepository } from '../admins/index.js';
import { authRoutes } from './auth.routes.js';
import { AuthService, type FirstRunFile } from './auth.service.js';
import { LoginGuard } from './login-guard.js';
import { RefreshFamiliesRepository } from './refresh-families.repository.js';
import { RefreshSessions } from './refresh-sessions.js';
import { TokenService } from './tokens.js';

export type { AuthService, LoginGuard, TokenService };

export interface AuthModuleDeps {
  db: Kysely<Database>;
  admins: AdminsRepository;
  lookup: AdminLookup;
  cache: Cache;
  settings: RuntimeSettings;
  audit: AuditService;
  cipher: Cipher;
  log: Logger;
  secretKey: string;
  /** Resolves allowlist host names at login. */
  resolver: HostResolver;
  firstRun?: FirstRunFile;
}

export function createAuthModule(d: AuthModuleDeps) {
  const tokens = new TokenService(d.secretKey);
  const guard = new LoginGuard(d.cache, d.settings, d.log, d.resolver);
  const families = new RefreshFamiliesRepository(d.db);
  const sessions = new RefreshSessions({ families, tokens, admins: d.admins, guard, audit: d.audit, settings: d.settings });
  const auth = new AuthService({
    admins: d.admins, lookup: d.lookup, tokens, sessions, guard, audit: d.audit, cipher: d.cipher, settings: d.settings,
    firstRun: d.firstRun,
  });
  const feature: Feature = { name: 'auth', routes: [mount('/api/auth', authRoutes, { auth, sessions })] };
  return { auth, guard, tokens, feature };
}
