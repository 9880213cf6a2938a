/**
 * SSH private-key validation shared by key presets and servers' inline keys. Parsing is ssh2's
 * (`utils.parseKey`); node:crypto only re-encodes PKCS#8 keys, which ssh2 cannot read, into the
 * traditional PEM form it can. Error texts never quote key material.
 */
import crypto from 'node:crypto';
import type ssh2 from 'ssh2';
import { BadRequestError } from './errors.js';
import { requireOnUse } from './require-on-use.js';

const OPENSSH = '-----BEGIN OPENSSH PRIVATE KEY-----';
const RSA_PEM = '-----BEGIN RSA PRIVATE KEY-----';
const PKCS8 = '-----BEGIN PRIVATE KEY-----';
const PKCS8_ENCRYPTED = '-----BEGIN ENCRYPTED PRIVATE KEY-----';

const ENCRYPTED_MESSAGE =
  'Encrypted (passphrase-protected) private keys are not supported; remove the passphrase first (ssh-keygen -p -N "" -f KEY)';
const FORMAT_MESSAGE =
  'Invalid private key: expected an unencrypted RSA PEM (BEGIN RSA PRIVATE KEY / BEGIN PRIVATE KEY) or OpenSSH (BEGIN OPENSSH PRIVATE KEY) key';

export interface ParsedPrivateKey {
  /** The key as stored: trimmed, LF line endings, one trailing newline. */
  normalized: string;
  /** e.g. `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`. */
  keyType: string;
  /** `type base64`, the first two fields `ssh-keygen -y` prints. */
  publicKey: string;
}

export function normalizeKeyText(text: string): string {
  return `${text.replace(/\r\n?/g, '\n').trim()}\n`;
}

/**
 * Validates a private key and derives its public key. Throws BadRequestError (400) for anything
 * that is not an unencrypted RSA PEM, PKCS#8 (RSA/ECDSA) or OpenSSH-format key.
 */
export function parsePrivateKey(text: string): ParsedPrivateKey {
  const normalized = normalizeKeyText(text);
  if (normalized.startsWith(PKCS8_ENCRYPTED) || /^Proc-Type:\s*4,ENCRYPTED/m.test(normalized)) {
    throw new BadRequestError(ENCRYPTED_MESSAGE, 'private_key_encrypted');
  }
  const header = [OPENSSH, RSA_PEM, PKCS8].find((h) => normalized.startsWith(h));
  if (!header || !normalized.includes(header.replace('BEGIN', 'END'))) throw new BadRequestError(FORMAT_MESSAGE, 'private_key_invalid');

  // ssh2 loads on first use: it instantiates a WebAssembly module (Poly1305) costing ~10 MB of RSS.
  const { utils } = requireOnUse('ssh2') as typeof ssh2;
  const parsed = utils.parseKey(toSsh2Form(normalized, header));
  if (parsed instanceof Error) {
    if (/passphrase|encrypted/i.test(parsed.message)) throw new BadRequestError(ENCRYPTED_MESSAGE, 'private_key_encrypted');
    throw new BadRequestError(FORMAT_MESSAGE, 'private_key_invalid');
  }
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key?.isPrivateKey()) throw new BadRequestError(FORMAT_MESSAGE, 'private_key_invalid');
  return { normalized, keyType: key.type, publicKey: `${key.type} ${key.getPublicSSH().toString('base64')}` };
}

/**
 * The form to hand to ssh2 when connecting: PKCS#8 becomes PKCS#1 (RSA) or SEC1 (ECDSA);
 * everything else passes through. Deterministic, so the SSH pool's credential hash is stable.
 */
export function toSsh2PrivateKey(text: string): string {
  const normalized = normalizeKeyText(text);
  return normalized.startsWith(PKCS8) ? toSsh2Form(normalized, PKCS8) : normalized;
}

function toSsh2Form(normalized: string, header: string): string {
  if (header !== PKCS8) return normalized;
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey({ key: normalized, format: 'pem' });
  } catch {
    throw new BadRequestError(FORMAT_MESSAGE, 'private_key_invalid');
  }
  if (key.asymmetricKeyType === 'rsa') return String(key.export({ type: 'pkcs1', format: 'pem' }));
  if (key.asymmetricKeyType === 'ec') return String(key.export({ type: 'sec1', format: 'pem' }));
  throw new BadRequestError(
    `PKCS#8 ${key.asymmetricKeyType ?? 'unknown'} keys are not supported; use the OpenSSH format (BEGIN OPENSSH PRIVATE KEY)`,
    'private_key_unsupported',
  );
}
