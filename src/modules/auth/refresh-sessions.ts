/**
 * A login's refresh tokens. Each login starts a family (a database row); each refresh token names
 * its family and carries an id, and only the family's newest token may be used: using it rotates
 * the family to the token it returns. Presenting any older one means two parties hold the chain
 * (a stolen token, or a client that refreshed twice at once), so the whole family is revoked and
 * audited as `refresh_reuse`. A family ends `session_max_age_days` after its login whatever the
 * refreshes, and at logout. Access tokens stay stateless: this runs only on refresh.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../core/actor.js';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import type { AdminRow, RefreshFamilyRow } from '../../db/types.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { AdminsRepository } from '../admins/index.js';
import type { LoginGuard } from './login-guard.js';
import type { RefreshFamiliesRepository } from './refresh-families.repository.js';
import type { TokenPair, TokenService } from './tokens.js';

export const SESSION_MAX_AGE_SETTING = 'session_max_age_days';
export const DEFAULT_SESSION_MAX_AGE_DAYS = 30;
const DAY_MS = 86_400_000;
/**
 * How often (per process) a login also deletes the families past the age cap. They are refused by
 * age anyway, so this only keeps the table small; once per login was a DELETE on every login.
 */
const PRUNE_EVERY_MS = 10 * 60_000;
const INVALID = 'Invalid or expired refresh token';

export interface RefreshSessionsDeps {
  families: RefreshFamiliesRepository;
  tokens: TokenService;
  admins: Pick<AdminsRepository, 'findById'>;
  guard: Pick<LoginGuard, 'isAllowed'>;
  audit: AuditService;
  settings: RuntimeSettings;
}

/** A login's session before it is stored: `commit` once, after every check passed. */
export interface PendingSession {
  commit(): Promise<TokenPair>;
}

export class RefreshSessions {
  private nextPruneAt = 0;

  constructor(private readonly d: RefreshSessionsDeps) {}

  /** After a successful login: a new family and its first token pair. */
  start(admin: AdminRow): Promise<TokenPair> {
    return this.prepare(admin).commit();
  }

  /**
   * A family and its first token pair, signed from now on, with nothing stored: a login prepares
   * it while the password is being checked and commits it only if every check passes. `commit`
   * writes the family row and returns the pair only once the row is in the database (a token of
   * a family that is not stored would be refused at its first refresh).
   */
  prepare(admin: AdminRow): PendingSession {
    const family = { id: randomUUID(), adminId: admin.id, jti: randomUUID(), createdAt: nowIso() };
    const signed = this.d.tokens.issuePair(admin, { family: family.id, refreshJti: family.jti, endsAt: this.endsAt({ created_at: family.createdAt }) });
    // A login that fails never awaits the pair; its rejection must not go unhandled.
    signed.catch(() => {});
    return {
      commit: async () => {
        const [, pair] = await Promise.all([this.d.families.create(family), signed]);
        await this.pruneNowAndThen();
        return pair;
      },
    };
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now < this.nextPruneAt) return;
    this.nextPruneAt = now + PRUNE_EVERY_MS;
    await this.d.families.pruneCreatedBefore(new Date(now - this.maxAgeMs()).toISOString());
  }

  /** `POST /api/auth/refresh`: the allowlist first (as for login), then the token, then its family. */
  async refresh(refreshToken: string, ip: string): Promise<TokenPair> {
    if (!(await this.d.guard.isAllowed(ip))) {
      await this.d.audit.record({ adminId: null, username: 'anonymous', ip }, 'login_ip_blocked', {
        type: 'admin',
        detail: `refresh ip=${ip}`,
      });
      throw new ForbiddenError('ip_blocked', 'ip_blocked');
    }
    const claims = await this.d.tokens.verify(refreshToken, 'refresh');
    // Tokens from before families existed carry none: they cannot be tracked, so they end here.
    if (!claims?.family || !claims.jti) throw new UnauthorizedError(INVALID, 'session_invalid');
    const admin = await this.d.admins.findById(claims.adminId);
    if (!admin || admin.token_version !== claims.tokenVersion) throw new UnauthorizedError(INVALID, 'session_invalid');
    const family = await this.d.families.find(claims.family);
    if (!family || family.revoked || family.admin_id !== admin.id) throw new UnauthorizedError(INVALID, 'session_invalid');
    if (this.endsAt(family) * 1000 <= Date.now()) {
      await this.d.families.revoke(family.id);
      throw new UnauthorizedError('Session expired; log in again', 'session_expired');
    }
    const next = randomUUID();
    if (family.current_jti !== claims.jti || !(await this.d.families.rotate(family.id, claims.jti, next))) {
      await this.d.families.revoke(family.id);
      const actor: Actor = { adminId: admin.id, username: admin.username, ip };
      await this.d.audit.record(actor, 'refresh_reuse', { type: 'admin', id: admin.id, detail: `family=${family.id}` });
      throw new UnauthorizedError(INVALID, 'session_invalid');
    }
    return this.d.tokens.issuePair(admin, { family: family.id, refreshJti: next, endsAt: this.endsAt(family) });
  }

  /**
   * `POST /api/auth/logout`: revokes the login the token belongs to (any of its tokens will do,
   * and again is no error). The access tokens already issued run out on their own (30 min).
   */
  async logout(refreshToken: string, ip: string): Promise<void> {
    const claims = await this.d.tokens.verify(refreshToken, 'refresh');
    if (!claims?.family) throw new UnauthorizedError(INVALID, 'session_invalid');
    await this.d.families.revoke(claims.family);
    const actor: Actor = { adminId: claims.adminId, username: claims.username, ip };
    await this.d.audit.record(actor, 'logout', { type: 'admin', id: claims.adminId });
  }

  /** A password change: every login of that admin ends (the token_version check does it too). */
  revokeAllOf(adminId: number): Promise<void> {
    return this.d.families.revokeAllOf(adminId);
  }

  private maxAgeMs(): number {
    const days = this.d.settings.getInt(SESSION_MAX_AGE_SETTING, DEFAULT_SESSION_MAX_AGE_DAYS);
    return (days > 0 ? days : DEFAULT_SESSION_MAX_AGE_DAYS) * DAY_MS;
  }

  /** When the login's session ends (unix seconds), under the current setting. */
  private endsAt(family: Pick<RefreshFamilyRow, 'created_at'>): number {
    return Math.floor((Date.parse(family.created_at) + this.maxAgeMs()) / 1000);
  }
}
