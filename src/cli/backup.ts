/**
 * Online backup, run on the host while the service keeps serving:
 *
 *   npm run backup -- <file>              (development, through tsx)
 *   node dist/src/cli/backup.js <file>    (the built service)
 *
 * Writes one gzipped tar (0600: it holds the keys) with a consistent snapshot of the database
 * (SQLite online backup API, or pg_dump's custom format) and the key files of DATA_DIR. Run it with
 * the service's environment (DATA_DIR, DATABASE_URL, the keys). Exit code 0 on success, 1 on a
 * failure, 2 for wrong usage. Restore with `restore` (src/cli/restore.ts).
 */
import { errorMessage } from '../core/errors.js';
import { createBackup } from '../platform/backup/backup.js';
import { type CliIo, runIfMain } from './run-cli.js';

const USAGE = 'usage: backup <file.tar.gz>';

export async function runBackupCli(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [file, ...rest] = args;
  if (!file || file.startsWith('-') || rest.length > 0) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  try {
    const r = await createBackup(env, file);
    const m = r.manifest;
    io.out(`Backup written: ${r.file} (${r.bytes} bytes, ${m.database} database, taken ${m.created_at})\n`);
    for (const name of ['secret_key', 'encryption_key'] as const) {
      if (m[name] === 'env') {
        io.out(`Note: ${name.toUpperCase()} is set in the environment and is NOT in the archive: keep it with the backup.\n`);
      }
    }
    return 0;
  } catch (err) {
    io.err(`backup failed: ${errorMessage(err)}\n`);
    return 1;
  }
}

runIfMain(import.meta.url, 'backup', runBackupCli);
