/**
 * `DATA_DIR/initial-admin-password`: the generated password of the first administrator, kept
 * (0600, like the keys beside it) until that administrator first logs in or changes it, so an
 * operator who missed the line on stderr can still read it on the host. While the file exists
 * the login page names its path (and nothing else).
 */
import fs from 'node:fs';
import path from 'node:path';
import { errCode } from '../core/errors.js';

export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

export class InitialPasswordFile {
  readonly path: string;

  constructor(
    dataDir: string,
    /** The administrator whose password it holds: only their login removes it. */
    readonly username: string,
  ) {
    this.path = path.resolve(dataDir, INITIAL_PASSWORD_FILE);
  }

  write(password: string): void {
    fs.writeFileSync(this.path, `${password}\n`, { mode: 0o600 });
    // An existing file keeps its mode on overwrite: tighten it.
    fs.chmodSync(this.path, 0o600);
  }

  /** The path while the file exists, else null. */
  current(): string | null {
    return fs.existsSync(this.path) ? this.path : null;
  }

  /** After `username` logged in or got a new password: the file has served its purpose. */
  consumedBy(username: string): void {
    if (username !== this.username) return;
    this.remove();
  }

  remove(): void {
    try {
      fs.unlinkSync(this.path);
    } catch (err) {
      if (errCode(err) !== 'ENOENT') throw err;
    }
  }
}
