/** HS256 JWTs (jose): access 30 min, refresh 7 days, each carrying the admin's token_version. */
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TTL_S = 30 * 60;
export const REFRESH_TTL_S = 7 * 24 * 3600;

export interface TokenClaims {
  adminId: number;
  username: string;
  tokenVersion: number;
  type: 'access' | 'refresh';
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  private sign(adminId: number, username: string, tv: number, type: 'access' | 'refresh', ttl: number) {
    return new SignJWT({ username, tv, typ: type })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(adminId))
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
      .sign(this.key);
  }

  async issuePair(admin: { id: number; username: string; token_version: number }): Promise<TokenPair> {
    const [access, refresh] = await Promise.all([
      this.sign(admin.id, admin.username, admin.token_version, 'access', ACCESS_TTL_S),
      this.sign(admin.id, admin.username, admin.token_version, 'refresh', REFRESH_TTL_S),
    ]);
    return { access_token: access, refresh_token: refresh, token_type: 'bearer', expires_in: ACCESS_TTL_S };
  }

  /** Null for any bad, expired or wrong-type token. */
  async verify(token: string, type: 'access' | 'refresh'): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const adminId = Number(payload.sub);
      if (payload.typ !== type || !Number.isInteger(adminId) || typeof payload.tv !== 'number') return null;
      return { adminId, username: String(payload.username ?? ''), tokenVersion: payload.tv, type };
    } catch {
      return null;
    }
  }
}
