/**
 * First start: the first administrator and the API key, each created only when absent. Runs in
 * the process that owns the database (role `single` or `primary`), after migrations.
 */
import crypto from 'node:crypto';
import type { AppConfig } from '../config/config.js';
import { generateApiKey, type Cipher } from '../core/crypto.js';
import type { Logger } from '../core/logger.js';
import type { AdminsRepository } from '../modules/admins/index.js';
import { hashPassword } from '../core/passwords.js';
import type { RuntimeSettings } from '../platform/settings/runtime-settings.js';

export interface FirstStartDeps {
  config: AppConfig;
  adminsRepo: AdminsRepository;
  settings: RuntimeSettings;
  cipher: Cipher;
  log: Logger;
  print?: (line: string) => void;
}

export async function firstStart(d: FirstStartDeps): Promise<void> {
  const print = d.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  if ((await d.adminsRepo.count()) === 0) {
    const generated = d.config.adminPassword === null;
    const password = d.config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
    try {
      await d.adminsRepo.create(d.config.adminUsername, await hashPassword(password));
      d.log.info({ username: d.config.adminUsername }, 'first administrator created');
      if (generated) {
        // Printed once, straight to stdout and never through the logger.
        print(`\n  First administrator: ${d.config.adminUsername}\n  Generated password:  ${password}\n  (shown only once; change it after logging in)\n`);
      }
    } catch {
      // Another process created it at the same moment.
    }
  }
  if (!d.settings.has('api_key')) {
    await d.settings.set('api_key', d.cipher.encrypt(generateApiKey()));
  }
}
