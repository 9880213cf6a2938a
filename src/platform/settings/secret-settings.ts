/**
 * Sensitive settings (the API key, the bot tokens) are kept encrypted in the settings table, the
 * same `v1:` cipher format `bootstrap.ts` uses for `api_key` and `AuthService.apiKeyMatches` reads.
 * These helpers are the one place that encrypts on write and decrypts on read.
 */
import type { Cipher } from '../../core/crypto.js';
import type { Logger } from '../../core/logger.js';
import type { RuntimeSettings } from './runtime-settings.js';
import { ENCRYPTED_KEYS } from './setting-keys.js';

export class SecretSettings {
  constructor(
    private readonly settings: RuntimeSettings,
    private readonly cipher: Cipher,
    private readonly log?: Logger,
  ) {}

  /** The plain value of a setting; encrypted keys are decrypted, a blank or missing one is null. */
  read(key: string): string | null {
    const stored = this.settings.get(key);
    if (stored === null || stored === '') return null;
    if (!ENCRYPTED_KEYS.has(key)) return stored;
    return this.cipher.decrypt(stored);
  }

  /** Like `read`, but an undecryptable value counts as absent (logged, never thrown). */
  readOrNull(key: string): string | null {
    try {
      return this.read(key);
    } catch {
      this.log?.warn({ key }, 'stored secret setting could not be decrypted; treating it as unset');
      return null;
    }
  }

  /** What goes into the settings table for a plain value of this key. */
  encode(key: string, plain: string): string {
    return ENCRYPTED_KEYS.has(key) && plain !== '' ? this.cipher.encrypt(plain) : plain;
  }

  async write(key: string, plain: string): Promise<void> {
    await this.settings.set(key, this.encode(key, plain));
  }
}
