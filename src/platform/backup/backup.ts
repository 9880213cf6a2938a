/**
 * `backup <file>`: one archive with a consistent online snapshot of the database and the key
 * files that decrypt its secrets, taken while the service keeps running. A key set in the
 * environment (SECRET_KEY, ENCRYPTION_KEY) is not on disk and so not in the archive: the manifest
 * records that, and the operator must keep that value elsewhere (restore refuses without it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config.js';
import { VERSION } from '../../config/version.js';
import { dialectOf } from '../../db/database.js';
import { type BackupManifest, keyFingerprint, MANIFEST, packArchive, PG_DUMP_FILE, SQLITE_FILE } from './archive.js';
import { snapshotPostgres, snapshotSqlite } from './database-snapshot.js';

export const KEY_FILES = ['secret_key', 'encryption_key'] as const;

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
  bytes: number;
}

export async function createBackup(env: NodeJS.ProcessEnv, file: string): Promise<BackupResult> {
  // Reads the keys the running service uses; never creates a data directory or a key.
  const config = loadConfig(env, { create: false });
  const dialect = dialectOf(config.databaseUrl);
  const out = path.resolve(file);
  if (!fs.statSync(path.dirname(out), { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`${path.dirname(out)} is not a directory`);
  }
  // Beside the archive (not /tmp): the snapshot may be as large as the database.
  const work = fs.mkdtempSync(path.join(path.dirname(out), '.fleet-backup-'));
  try {
    const databaseFile = dialect === 'sqlite' ? SQLITE_FILE : PG_DUMP_FILE;
    if (dialect === 'sqlite') await snapshotSqlite(config.databaseUrl, path.join(work, databaseFile));
    else await snapshotPostgres(config.databaseUrl, path.join(work, databaseFile));
    const fromEnv = { secret_key: config.secretKeyFromEnv !== null, encryption_key: config.encryptionKeyFromEnv !== null };
    for (const name of KEY_FILES) {
      if (!fromEnv[name]) fs.copyFileSync(path.join(config.dataDir, name), path.join(work, name));
    }
    const manifest: BackupManifest = {
      format: 1,
      created_at: new Date().toISOString(),
      service_version: VERSION,
      database: dialect,
      database_file: databaseFile,
      secret_key: fromEnv.secret_key ? 'env' : 'file',
      encryption_key: fromEnv.encryption_key ? 'env' : 'file',
      encryption_key_sha256: keyFingerprint(config.encryptionKey),
    };
    fs.writeFileSync(path.join(work, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await packArchive(work, out);
    return { file: out, manifest, bytes: fs.statSync(out).size };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
