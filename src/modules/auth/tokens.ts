/** HS256 JWTs (jose): access 30 min, refresh 7 days, each carrying the admin's token_version. */
import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
export type { TokenPair } from './auth.schemas.js';
import type { TokenPair } from './auth.schemas.js';

export const ACCESS_TTL_S = 30 * 60;
export const REFRESH_TTL_S = 7 * 24 * 3600;
const VERIFIED_CACHE_MAX = 10_000;

export interface TokenClaims {
  adminId: number;
  username: string;
  tokenVersion: number;
  type: 'access' | 'refresh';
  /** Unix seconds. */
  expiresAt: number;
  /** The token's own id. */
  jti?: string;
  /** Refresh tokens: the login they descend from. */
  family?: string;
}

export class TokenService {
  // A KeyObject lets jose use node:crypto's HMAC directly; a raw Uint8Array makes it import a
  // WebCrypto key on every call, which costs ~0.4 ms per request.
  private readonly key: KeyObject;
  private readonly verified = new Map<string, { claims: TokenClaims; exp: number }>();

  /**
   * `now` is the wall clock (ms since the epoch) that issues and checks expiries. It is the wall
   * clock on purpose: `exp` is an instant every worker must agree on, so a clock set forward
   * expires tokens at once, as it should.
   */
  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private sign(
    admin: { id: number; username: string; token_version: number },
    type: 'access' | 'refresh',
    expiresAt: number,
    extra: { jti?: string; fam?: string } = {},
  ) {
    return new SignJWT({ username: admin.username, token_version: admin.token_version, typ: type, ...(extra.fam ? { fam: extra.fam } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(admin.id))
      .setIssuedAt(Math.floor(this.now() / 1000))
      .setJti(extra.jti ?? crypto.randomUUID())
      .setExpirationTime(expiresAt)
      .sign(this.key);
  }

  /**
   * An access token and a refresh token. The refresh token belongs to the login `session.family`,
   * carries `session.refreshJti` (the one the family will accept next) and never outlives the
   * session (`session.endsAt`, unix seconds).
   */
  async issuePair(
    admin: { id: number; username: string; token_version: number },
    session?: { family: string; refreshJti: string; endsAt: number },
  ): Promise<TokenPair> {
    const now = Math.floor(this.now() / 1000);
    const refreshExp = Math.min(now + REFRESH_TTL_S, session?.endsAt ?? Number.POSITIVE_INFINITY);
    const [access, refresh] = await Promise.all([
      this.sign(admin, 'access', now + ACCESS_TTL_S),
      this.sign(admin, 'refresh', refreshExp, { jti: session?.refreshJti, fam: session?.family }),
    ]);
    return { access_token: access, refresh_token: refresh, token_type: 'bearer', expires_in: ACCESS_TTL_S };
  }

  /**
   * Null for any bad, expired or wrong-type token. A token string that verified once stays valid
   * until its `exp` (revocation is the caller's token_version check), so the result is memoised:
   * jose verifies through WebCrypto, which costs a few hundred µs per call on Node.
   */
  async verify(token: string, type: 'access' | 'refresh'): Promise<TokenClaims | null> {
    const known = this.verifyKnown(token, type);
    if (known !== undefined) return known;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: new Date(this.now()) });
      const adminId = Number(payload.sub);
      // Earlier builds named the claim `tv`; their refresh tokens stay valid across an upgrade.
      const tokenVersion = payload.token_version ?? payload.tv;
      if (payload.typ !== type || !Number.isInteger(adminId) || typeof tokenVersion !== 'number') return null;
      const expiresAt = payload.exp ?? 0;
      const claims: TokenClaims = { adminId, username: String(payload.username ?? ''), tokenVersion, type, expiresAt };
      if (typeof payload.jti === 'string') claims.jti = payload.jti;
      if (typeof payload.fam === 'string') claims.family = payload.fam;
      this.remember(token, claims, expiresAt);
      return claims;
    } catch {
      return null;
    }
  }

  /**
   * `verify` from the memo alone: the claims of a token that verified before and has not expired
   * (null if it is of the other type), undefined when it has to be verified in full.
   */
  verifyKnown(token: string, type: 'access' | 'refresh'): TokenClaims | null | undefined {
    const hit = this.verified.get(token);
    if (!hit || hit.exp * 1000 <= this.now()) return undefined;
    return hit.claims.type === type ? hit.claims : null;
  }

  private remember(token: string, claims: TokenClaims, exp: number): void {
    if (this.verified.size >= VERIFIED_CACHE_MAX) {
      // Maps iterate in insertion order: drop the oldest entry.
      this.verified.delete(this.verified.keys().next().value!);
    }
    this.verified.set(token, { claims, exp });
  }
}
