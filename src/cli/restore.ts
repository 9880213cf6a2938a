/**
 * Restore of a backup made by `backup` (src/cli/backup.ts), with the service stopped:
 *
 *   npm run restore -- <file>              (development, through tsx)
 *   node dist/src/cli/restore.js <file>    (the built service)
 *
 * Into an empty DATA_DIR (missing or empty; a non-empty one is refused) and, for PostgreSQL, the
 * empty database DATABASE_URL names (create it first). If the backup was taken with ENCRYPTION_KEY
 * in the environment, set the same value for the restore. Exit code 0 on success, 1 on a failure
 * (nothing is left half-restored), 2 for wrong usage.
 */
import { errorMessage } from '../core/errors.js';
import { restoreBackup } from '../platform/backup/restore.js';
import { type CliIo, runIfMain } from './run-cli.js';

const USAGE = 'usage: restore <file.tar.gz>';

export async function runRestoreCli(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [file, ...rest] = args;
  if (!file || file.startsWith('-') || rest.length > 0) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  try {
    const r = await restoreBackup(env, file);
    io.out(`Restored ${r.manifest.database} backup of ${r.manifest.created_at} into ${r.dataDir}\n`);
    for (const note of r.notes) io.out(`Note: ${note}\n`);
    return 0;
  } catch (err) {
    io.err(`restore failed: ${errorMessage(err)}\n`);
    return 1;
  }
}

runIfMain(import.meta.url, 'restore', runRestoreCli);
