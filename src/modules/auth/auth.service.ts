/**
 * Login (allowlist 403, lockout 429, credentials, TOTP, in that order), refresh with rotation,
 * the current admin, password change and TOTP (RFC 6238, 30 s, 6 digits, ±1 step, each code once).
 */
import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError, ConflictError, ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import type { AdminRow } from '../../db/types.js';
import type { AdminLookup, AdminsRepository } from '../admins/index.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { AttemptSlot, LoginGuard } from './login-guard.js';
import { burnVerify, hashPassword, verifyPassword } from '../../core/passwords.js';
import type { PendingSession, RefreshSessions } from './refresh-sessions.js';
import type { TokenPair, TokenService } from './tokens.js';
import type { LoginBody } from './auth.schemas.js';

const BAD_CREDENTIALS = 'Incorrect username or password';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
const API_KEY_MAX_AGE_MS = 1_000;

export interface AuthDeps {
  admins: AdminsRepository;
  /** The request-time admin lookup (kept in memory, invalidated on every admin write). */
  lookup: Pick<AdminLookup, 'findById' | 'peek'>;
  tokens: TokenService;
  sessions: RefreshSessions;
  guard: LoginGuard;
  audit: AuditService;
  cipher: Cipher;
  settings: RuntimeSettings;
  systemName?: string;
  /** The first administrator's generated password kept on the host until they log in. */
  firstRun?: FirstRunFile;
}

/** What the auth feature knows of `DATA_DIR/initial-admin-password`. */
export interface FirstRunFile {
  /** Its path while it exists, else null. */
  current(): string | null;
  /** `username` logged in or changed their password: the file goes if it was theirs. */
  consumedBy(username: string): void;
}

export class AuthService {
  constructor(private readonly d: AuthDeps) {}

  async login(input: LoginBody, ip: string): Promise<TokenPair> {
    const actor: Actor = { adminId: null, username: input.username, ip };
    if (!(await this.d.guard.isAllowed(ip))) {
      await this.d.audit.record(actor, 'login_ip_blocked', { type: 'admin', detail: `ip=${ip}` });
      throw new ForbiddenError('ip_blocked', 'ip_blocked');
    }
    // The row is read while the attempt is counted; its outcome is awaited only inside the
    // try below, so a failed read still releases the slot (and a refused slot drops the read).
    const lookup = this.d.admins.findByUsername(input.username);
    lookup.catch(() => {});
    // The attempt is counted before the password is checked (parallel requests cannot outrun it).
    const slot = await this.d.guard.reserve(input.username, ip);
    let admin: AdminRow | undefined;
    let session: PendingSession | undefined;
    try {
      admin = await lookup;
      const checking = admin ? verifyPassword(admin.password_hash, input.password) : burnVerify(input.password);
      // The session's tokens are signed while Argon2 runs on the thread pool (the answer waits
      // for the check either way, so known and unknown names still take the same time). They
      // stay in memory and are dropped unless every check below passes; nothing is stored yet.
      session = admin ? this.d.sessions.prepare(admin) : undefined;
      const ok = await checking;
      if (!admin || !session || !ok) return await this.fail(slot, actor, 'bad_credentials', BAD_CREDENTIALS);

      if (admin.totp_enabled && admin.totp_secret_enc) {
        if (!input.totp_code) {
          // The password was right: asking for the code is no failure.
          await slot.release();
          await this.d.audit.record(actor, 'login_failed', { type: 'admin', id: admin.id, detail: 'totp_required' });
          throw new UnauthorizedError('totp_required', 'totp_required');
        }
        if (!(await this.acceptTotp(admin, admin.totp_secret_enc, input.totp_code))) {
          return await this.fail(slot, actor, 'totp_invalid', 'totp_invalid', admin.id);
        }
      }
    } finally {
      // Whatever did not count as a failure above (a right answer, a database error) is no failure.
      await slot.release();
    }
    // Independent writes, all finished before the answer: the lockout count, the audit row and
    // the new refresh family (whose tokens are signed meanwhile) go out together.
    const [, , pair] = await Promise.all([
      this.d.guard.clearUser(input.username),
      this.d.audit.record({ ...actor, adminId: admin.id }, 'login', { type: 'admin', id: admin.id }),
      session.commit(),
    ]);
    this.consumeFirstRun(admin.username);
    return pair;
  }

  /** The path of the initial password file while it exists: all the login page of a fresh install needs. */
  firstRun(): { initial_password_file: string | null } {
    return { initial_password_file: this.d.firstRun?.current() ?? null };
  }

  private consumeFirstRun(username: string): void {
    try {
      this.d.firstRun?.consumedBy(username);
    } catch {
      // The file stays (and the login page keeps naming it); the login itself succeeded.
    }
  }

  private async fail(slot: AttemptSlot, actor: Actor, reason: string, message: string, adminId?: number): Promise<never> {
    await slot.failed();
    await this.d.audit.record(actor, 'login_failed', { type: 'admin', id: adminId ?? null, detail: reason });
    throw new UnauthorizedError(message, reason === 'totp_invalid' ? 'totp_invalid' : 'invalid_credentials');
  }

  /** The admin behind an access token, or null when the token is bad, expired or revoked. */
  async authenticate(token: string): Promise<AdminRow | null> {
    const claims = await this.d.tokens.verify(token, 'access');
    if (!claims) return null;
    const admin = await this.d.lookup.findById(claims.adminId);
    return admin && admin.token_version === claims.tokenVersion ? admin : null;
  }

  /**
   * `authenticate` without waiting, when the token verified before and its admin row was read
   * within the last second: the same checks (signature, expiry, token_version) on what is in
   * memory. Undefined when something has to be read; the caller then awaits `authenticate`.
   * Most requests come this way, and skipping two promises per request is measurable.
   */
  authenticateKnown(token: string): AdminRow | null | undefined {
    const claims = this.d.tokens.verifyKnown(token, 'access');
    if (claims === undefined || claims === null) return claims;
    const admin = this.d.lookup.peek(claims.adminId);
    if (admin === undefined) return undefined;
    return admin.token_version === claims.tokenVersion ? admin : null;
  }

  /** Like `authenticate`, with the token's expiry (ms) for what outlives a request: the live socket. */
  async authenticateSession(token: string): Promise<{ admin: AdminRow; expiresAtMs: number } | null> {
    const claims = await this.d.tokens.verify(token, 'access');
    if (!claims) return null;
    const admin = await this.d.lookup.findById(claims.adminId);
    return admin && admin.token_version === claims.tokenVersion ? { admin, expiresAtMs: claims.expiresAt * 1000 } : null;
  }

  /**
   * Constant-time comparison against the stored API key. The key is re-read from the database
   * when this worker's copy is over a second old: a rotation reaches every worker at once over
   * the cache, and within a second even when that announcement is lost.
   */
  async apiKeyMatches(presented: string): Promise<boolean> {
    const stored = await this.d.settings.getFresh('api_key', API_KEY_MAX_AGE_MS);
    if (!stored || !presented) return false;
    let plain: string;
    try {
      plain = this.d.cipher.decrypt(stored);
    } catch {
      return false;
    }
    const a = crypto.createHash('sha256').update(plain).digest();
    const b = crypto.createHash('sha256').update(presented).digest();
    return crypto.timingSafeEqual(a, b);
  }

  async changePassword(admin: AdminRow, actor: Actor, current: string, next: string): Promise<void> {
    await this.requireCurrentPassword(actor, admin, current, 'POST /api/auth/change-password');
    await this.d.admins.setPassword(admin.id, await hashPassword(next));
    await this.d.sessions.revokeAllOf(admin.id);
    await this.d.audit.record(actor, 'change_password', { type: 'admin', id: admin.id });
    this.consumeFirstRun(admin.username);
  }

  /**
   * Signs out every other session of this admin at once: the token version moves on (every
   * access and refresh token issued so far is refused, the live sockets close) and every login
   * is revoked; the caller carries on with a new login of its own, answered here. Access tokens
   * are stateless, so revoking only the other logins' refresh tokens would leave them working
   * for up to 30 minutes.
   */
  async signOutOthers(admin: AdminRow, actor: Actor): Promise<TokenPair> {
    const bumped = await this.d.admins.bumpTokenVersion(admin.id);
    if (!bumped) throw new UnauthorizedError('Administrator no longer exists', 'token_invalid');
    await this.d.sessions.revokeAllOf(admin.id);
    await this.d.audit.record(actor, 'sign_out_other_sessions', { type: 'admin', id: admin.id });
    return this.d.sessions.start(bumped);
  }

  /**
   * The one check of an admin's own password on the endpoints that ask for it again (reveals,
   * change-password, TOTP enable and disable, API key rotation). A wrong one is a failure of the login
   * lockout, counted before the check like a login attempt, and audited as `reauth_failed`
   * with the endpoint: a stolen access token must not become an unlimited password oracle.
   * Throws 400 when wrong, 429 while the username or address is locked out.
   */
  async requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void> {
    const slot = await this.d.guard.reserve(admin.username, actor.ip ?? '');
    if (await verifyPassword(admin.password_hash, password)) {
      await slot.release();
      return;
    }
    await slot.failed();
    await this.d.audit.record(actor, 'reauth_failed', { type: 'admin', id: admin.id, detail: `endpoint=${endpoint}` });
    throw new BadRequestError(WRONG_CURRENT_PASSWORD, 'wrong_password');
  }

  async totpSetup(admin: AdminRow, actor: Actor): Promise<{ secret: string; otpauth_url: string }> {
    // A new secret replaces the active one: while TOTP is on, only disable (with the password) may do that.
    if (admin.totp_enabled) throw new ConflictError('totp_enabled', 'totp_enabled');
    const secret = new OTPAuth.Secret({ size: 20 });
    const totp = this.totp(secret.base32, admin.username);
    // Stored but not active until a code proves the authenticator has it.
    await this.d.admins.setTotp(admin.id, this.d.cipher.encrypt(secret.base32), false);
    await this.d.audit.record(actor, 'totp_setup', { type: 'admin', id: admin.id });
    return { secret: secret.base32, otpauth_url: totp.toString() };
  }

  /**
   * Turns TOTP on. The password comes first: a stolen access token alone must not be able to
   * enrol an authenticator of its own and so lock the owner out of their account.
   */
  async totpEnable(admin: AdminRow, actor: Actor, code: string, currentPassword: string): Promise<void> {
    await this.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/auth/totp/enable');
    if (admin.totp_enabled) throw new ConflictError('totp_enabled', 'totp_enabled');
    if (!admin.totp_secret_enc) throw new BadRequestError('Run TOTP setup first', 'totp_not_set_up');
    if (!(await this.acceptTotp(admin, admin.totp_secret_enc, code))) throw new BadRequestError('Invalid TOTP code', 'totp_invalid');
    await this.d.admins.setTotp(admin.id, admin.totp_secret_enc, true);
    await this.d.audit.record(actor, 'totp_enable', { type: 'admin', id: admin.id });
  }

  async totpDisable(admin: AdminRow, actor: Actor, currentPassword: string): Promise<void> {
    await this.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/auth/totp/disable');
    await this.d.admins.setTotp(admin.id, null, false);
    await this.d.audit.record(actor, 'totp_disable', { type: 'admin', id: admin.id });
  }

  private totp(secretBase32: string, label: string): OTPAuth.TOTP {
    return new OTPAuth.TOTP({
      issuer: this.d.systemName ?? 'Fleet Admin',
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: OTPAuth.Secret.fromBase32(secretBase32),
    });
  }

  /**
   * True when `code` is valid now (RFC 6238, ±1 step) and its step is later than the last one this
   * admin used: a code is accepted once, and never after a later one.
   */
  private async acceptTotp(admin: AdminRow, secretEnc: string, code: string): Promise<boolean> {
    const step = this.totpStep(secretEnc, code.trim());
    return step !== null && (await this.d.admins.claimTotpStep(admin.id, step));
  }

  /** The time step a code belongs to, or null when it matches none of the current window. */
  private totpStep(secretEnc: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    try {
      const totp = this.totp(this.d.cipher.decrypt(secretEnc), 'x');
      const timestamp = Date.now();
      const delta = totp.validate({ token: code, window: 1, timestamp });
      return delta === null ? null : totp.counter({ timestamp }) + delta;
    } catch {
      return null;
    }
  }
}
