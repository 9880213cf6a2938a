/**
 * The backup archive: a gzipped tar made by the system `tar` (never a hand-rolled format) of one
 * directory holding `manifest.json`, the database snapshot and the key files. The archive holds
 * the keys that decrypt every stored secret, so it is created 0600 and appears under its final
 * name only once complete (written as `<file>.part`, then renamed).
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Static, Type } from 'typebox';
import { loadTypeboxValue } from '../../core/typebox-value.js';

const run = promisify(execFile);

export const MANIFEST = 'manifest.json';
export const SQLITE_FILE = 'fleet.db';
export const PG_DUMP_FILE = 'database.pgdump';

/** Where a key came from: a file in DATA_DIR (then it is in the archive) or the environment (then it is not). */
const KeySource = Type.Union([Type.Literal('file'), Type.Literal('env')]);

export const BackupManifest = Type.Object({
  format: Type.Literal(1),
  created_at: Type.String(),
  service_version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** File name of the snapshot inside the archive. */
  database_file: Type.String(),
  secret_key: KeySource,
  encryption_key: KeySource,
  /** sha256 of the 32-byte encryption key: restore checks an ENCRYPTION_KEY from the environment against it. */
  encryption_key_sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
export type BackupManifest = Static<typeof BackupManifest>;

export function keyFingerprint(key: Buffer): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

async function tar(args: string[]): Promise<void> {
  try {
    await run('tar', args, { maxBuffer: 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('the system `tar` was not found: install it (apt-get install tar)');
    throw new Error(`tar failed: ${(e.stderr ?? e.message).trim().slice(0, 300)}`);
  }
}

/** Packs the contents of `dir` into `file` (gzip), atomically and readable by the owner only. */
export async function packArchive(dir: string, file: string): Promise<void> {
  const part = `${file}.part`;
  fs.writeFileSync(part, '', { mode: 0o600 });
  try {
    await tar(['-czf', part, '-C', dir, '.']);
    fs.renameSync(part, file);
  } catch (err) {
    fs.rmSync(part, { force: true });
    throw err;
  }
}

/** Unpacks `file` into the empty directory `dir` and returns its validated manifest. */
export async function unpackArchive(file: string, dir: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  // --no-same-owner/-permissions: a root restore must not take uid/modes from the archive.
  await tar(['-xzf', file, '-C', dir, '--no-same-owner', '--no-same-permissions']);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    throw new Error(`${file} is not a Fleet Admin backup (no readable ${MANIFEST})`);
  }
  const { Value } = await loadTypeboxValue();
  if (!Value.Check(BackupManifest, raw)) throw new Error(`${file}: ${MANIFEST} is not a backup manifest this version understands`);
  return raw;
}
