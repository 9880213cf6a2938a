/**
 * First start: the first administrator and the API key, each created only when absent. Runs in
 * the process that owns the database (role `single` or `primary`), after migrations.
 */
import type { AppConfig } from '../config/config.js';
import type { InitialPasswordFile } from '../config/initial-password.js';
import { framed } from '../core/framed.js';
import { generateApiKey, type Cipher } from '../core/crypto.js';
import type { Logger } from '../core/logger.js';
import type { AdminsRepository } from '../modules/admins/index.js';
import { generatePassword, hashPassword } from '../core/passwords.js';
import type { RuntimeSettings } from '../platform/settings/runtime-settings.js';

export interface FirstStartDeps {
  config: AppConfig;
  adminsRepo: AdminsRepository;
  settings: RuntimeSettings;
  cipher: Cipher;
  log: Logger;
  /** Where a generated password is kept until its administrator logs in. */
  initialPassword: InitialPasswordFile;
  /** Where the framed block goes: stderr, written directly (no log level hides it). */
  print?: (text: string) => void;
}

export async function firstStart(d: FirstStartDeps): Promise<void> {
  const print = d.print ?? ((text: string) => process.stderr.write(text));
  if ((await d.adminsRepo.count()) === 0) {
    const generated = d.config.adminPassword === null;
    const password = d.config.adminPassword ?? generatePassword();
    try {
      await d.adminsRepo.create(d.config.adminUsername, await hashPassword(password));
      d.log.info({ username: d.config.adminUsername }, 'first administrator created');
      if (generated) {
        d.initialPassword.write(password);
        print(
          framed([
            `First administrator: ${d.config.adminUsername}`,
            `Generated password:  ${password}`,
            '',
            `Also kept in ${d.initialPassword.path}`,
            '(deleted at the first login; change the password after logging in)',
            'Lost it later? On this host: npm run admin -- reset-password <user>',
          ]),
        );
      }
    } catch {
      // Another process created it at the same moment.
    }
  }
  if (!d.settings.has('api_key')) {
    await d.settings.set('api_key', d.cipher.encrypt(generateApiKey()));
  }
}
