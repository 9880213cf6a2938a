/**
 * AES-256-GCM for secrets at rest (presets, server credentials, TOTP secrets, the API key),
 * on node:crypto. Format: `v1:` + base64(iv[12] | tag[16] | ciphertext).
 */
import crypto from 'node:crypto';

export class DecryptionError extends Error {
  constructor() {
    super('Stored secret could not be decrypted (was ENCRYPTION_KEY changed?)');
  }
}

export interface Cipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

export function createCipher(key: Buffer): Cipher {
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must decode to 32 bytes');
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return `v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
    },
    decrypt(stored) {
      try {
        if (!stored.startsWith('v1:')) throw new Error('format');
        const raw = Buffer.from(stored.slice(3), 'base64');
        const d = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        d.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
      } catch {
        throw new DecryptionError();
      }
    },
  };
}

/**
 * Accepts 64 hex chars or base64 of 32 bytes as-is; any other string is stretched with HKDF so an
 * operator-chosen passphrase still yields a full-strength key.
 */
export function parseEncryptionKey(value: string): Buffer {
  const v = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  const b64 = Buffer.from(v, 'base64');
  if (b64.length === 32 && /^[A-Za-z0-9+/_-]+=*$/.test(v)) return b64;
  return Buffer.from(crypto.hkdfSync('sha256', v, 'fleet-admin', 'encryption-key', 32));
}

/** A new API key: `fa_` and 24 random bytes. */
export function generateApiKey(): string {
  return `fa_${crypto.randomBytes(24).toString('base64url')}`;
}
