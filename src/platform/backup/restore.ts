/**
 * `restore <file>`: a backup archive into an empty DATA_DIR (a missing or empty directory) and,
 * for PostgreSQL, into the empty database DATABASE_URL names. Everything is checked before
 * anything is written (target empty, same kind of database, the encryption key available and the
 * one the secrets were encrypted with); a failure part-way removes what this restore wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readEnvConfig } from '../../config/config.js';
import { parseEncryptionKey } from '../../core/crypto.js';
import { dialectOf, sqlitePath } from '../../db/database.js';
import { type BackupManifest, keyFingerprint, unpackArchive } from './archive.js';
import { KEY_FILES } from './backup.js';
import { assertEmptyPostgres, assertNoSqliteFile, restorePostgres, restoreSqlite } from './database-snapshot.js';

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
  /** Things the operator must know before starting the service on the restored data. */
  notes: string[];
}

function assertEmptyDataDir(dir: string): void {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (entries.length > 0) {
    throw new Error(`DATA_DIR ${dir} is not empty (${entries.length} entries): restore only into an empty data directory; move the old one aside first`);
  }
}

/** The key the restored service will use must be the one the backup's secrets were encrypted with. */
function checkEncryptionKey(m: BackupManifest, work: string, fromEnv: string | null): void {
  if (m.encryption_key === 'env' && fromEnv === null) {
    throw new Error(
      'the backup was taken with ENCRYPTION_KEY set in the environment, so the key is not in the archive: ' +
        'set ENCRYPTION_KEY to that same value and run restore again',
    );
  }
  const key = fromEnv ?? fs.readFileSync(path.join(work, 'encryption_key'), 'utf8');
  if (keyFingerprint(parseEncryptionKey(key)) !== m.encryption_key_sha256) {
    throw new Error(
      fromEnv !== null
        ? "ENCRYPTION_KEY in the environment is not the key the backup's secrets were encrypted with (unset it to use the key file in the archive)"
        : 'the encryption_key file in the archive does not match its manifest: the archive is damaged',
    );
  }
}

export async function restoreBackup(env: NodeJS.ProcessEnv, file: string): Promise<RestoreResult> {
  const config = readEnvConfig(env);
  const dialect = dialectOf(config.databaseUrl);
  assertEmptyDataDir(config.dataDir);
  if (dialect === 'postgres') await assertEmptyPostgres(config.databaseUrl);
  else assertNoSqliteFile(config.databaseUrl);

  const parent = path.dirname(config.dataDir);
  fs.mkdirSync(parent, { recursive: true });
  const work = fs.mkdtempSync(path.join(parent, '.fleet-restore-'));
  const written: string[] = [];
  const createdDir = !fs.existsSync(config.dataDir);
  try {
    const m = await unpackArchive(path.resolve(file), work);
    if (m.database !== dialect) {
      throw new Error(`the backup holds a ${m.database} database but DATABASE_URL names a ${dialect} one: restore into the same kind`);
    }
    checkEncryptionKey(m, work, config.encryptionKeyFromEnv);

    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(config.dataDir, 0o700);
    for (const name of KEY_FILES) {
      if (m[name] !== 'file') continue;
      const target = path.join(config.dataDir, name);
      fs.copyFileSync(path.join(work, name), target, fs.constants.COPYFILE_EXCL);
      written.push(target);
      fs.chmodSync(target, 0o600);
    }
    const snapshot = path.join(work, m.database_file);
    if (dialect === 'sqlite') {
      // Checked above that it did not exist: removing it on a failure removes only our partial copy.
      written.push(sqlitePath(config.databaseUrl));
      restoreSqlite(snapshot, config.databaseUrl);
    } else {
      await restorePostgres(snapshot, config.databaseUrl);
    }

    const notes: string[] = [];
    if (m.secret_key === 'env' && config.secretKeyFromEnv === null) {
      notes.push('SECRET_KEY came from the environment when the backup was taken: set it again, or every session must log in anew');
    }
    if (m.encryption_key === 'env') notes.push('ENCRYPTION_KEY must stay set in the environment of the restored service');
    return { manifest: m, dataDir: config.dataDir, notes };
  } catch (err) {
    for (const f of written) fs.rmSync(f, { force: true });
    if (createdDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
