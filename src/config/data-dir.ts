/**
 * The first-start step: the data directory and the keys kept in it. DATA_DIR is made private
 * (0700) at every start, also when it already existed; `secret_key` and `encryption_key` are read
 * from it or, on a first start, generated (0600, written with `wx` so two processes starting at
 * once never overwrite each other's key). A process that may not create (a cluster worker,
 * forked after its primary prepared everything) only reads them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEncryptionKey } from '../core/crypto.js';
import { errCode } from '../core/errors.js';

export interface Keys {
  secretKey: string;
  encryptionKey: Buffer;
}

const GENERATORS = {
  secret_key: () => crypto.randomBytes(48).toString('base64url'),
  encryption_key: () => crypto.randomBytes(32).toString('hex'),
};

function keptSecret(dataDir: string, name: keyof typeof GENERATORS, create: boolean): string {
  const file = path.join(dataDir, name);
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    if (create) fs.chmodSync(file, 0o600);
    return value;
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
  if (!create) throw new Error(`${file} is missing: the first start (WORKERS=1, or the cluster's primary) creates it`);
  const value = GENERATORS[name]();
  try {
    fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}

/** Where the keys come from: the environment when set there, else files in DATA_DIR. */
export interface KeySources {
  dataDir: string;
  secretKeyFromEnv: string | null;
  encryptionKeyFromEnv: string | null;
}

export function prepareDataDir(c: KeySources, opts: { create: boolean }): Keys {
  if (opts.create) {
    fs.mkdirSync(c.dataDir, { recursive: true, mode: 0o700 });
    // An existing directory keeps the mode it was made with (often 0755): tighten it every start.
    fs.chmodSync(c.dataDir, 0o700);
  }
  const secretKey = c.secretKeyFromEnv ?? keptSecret(c.dataDir, 'secret_key', opts.create);
  const encryptionKey = parseEncryptionKey(c.encryptionKeyFromEnv ?? keptSecret(c.dataDir, 'encryption_key', opts.create));
  return { secretKey, encryptionKey };
}
