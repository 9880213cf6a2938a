/**
 * Host-side administration, for whoever can run commands on the machine (not the API):
 *
 *   npm run admin -- reset-password <user>          (development, through tsx)
 *   node dist/src/cli/admin.js reset-password <user>  (the built service)
 *
 * It reads the same configuration as the service (the environment: DATA_DIR, DATABASE_URL and
 * the keys in DATA_DIR), so run it with the service's environment. The new password is printed
 * once, framed, on stdout; exit code 0 on success, 1 for an unknown user or a failure, 2 for
 * wrong usage.
 */
import pino from 'pino';
import { loadConfig } from '../config/config.js';
import { InitialPasswordFile } from '../config/initial-password.js';
import { framed } from '../core/framed.js';
import { createDatabase } from '../db/database.js';
import { AdminsRepository } from '../modules/admins/admins.repository.js';
import { resetPasswordOnHost } from '../modules/auth/host-reset.js';
import { RefreshFamiliesRepository } from '../modules/auth/refresh-families.repository.js';
import { AuditRepository } from '../platform/audit/audit.repository.js';
import { AuditService } from '../platform/audit/audit.service.js';
import { type CliIo, runIfMain } from './run-cli.js';

const USAGE = 'usage: admin reset-password <username>';

export async function runAdminCli(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [command, username, ...rest] = args;
  if (command !== 'reset-password' || !username || rest.length > 0) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  // Only reads the keys: a data directory the service never prepared is an error, not a new install.
  const config = loadConfig(env, { create: false });
  const handle = createDatabase(config.databaseUrl, { poolSize: 1, maxOverflow: 1 });
  try {
    // Audit failures must still be seen on the host; nothing else of the service is logged here.
    const log = pino({ level: 'warn' }, pino.destination(2));
    const password = await resetPasswordOnHost(
      {
        admins: new AdminsRepository(handle.db),
        families: new RefreshFamiliesRepository(handle.db),
        audit: new AuditService(new AuditRepository(handle.db), log),
        firstRun: new InitialPasswordFile(config.dataDir, config.adminUsername),
      },
      username,
    );
    if (password === null) {
      io.err(`No administrator named "${username}".\n`);
      return 1;
    }
    io.out(
      framed([
        `Administrator:  ${username}`,
        `New password:   ${password}`,
        '',
        'Every earlier session of this administrator is signed out.',
        '(shown only once; change it after logging in)',
      ]),
    );
    return 0;
  } finally {
    await handle.destroy();
  }
}

runIfMain(import.meta.url, 'admin', runAdminCli);
