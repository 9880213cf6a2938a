import { createHash } from 'node:crypto';
import type { HostKeyInfo } from './types.js';

/** `SHA256:` + unpadded base64 of the SHA-256 of the key blob — the form `ssh-keygen -l` prints. */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Pins are stored as users paste them; tolerate base64 padding and surrounding blanks so a
 * cosmetic difference is never reported as a changed host key.
 */
export function normalizeFingerprint(fp: string): string {
  const trimmed = fp.trim().replace(/=+$/, '');
  return trimmed.startsWith('SHA256:') ? trimmed : `SHA256:${trimmed}`;
}

/** Decode the wire-format blob ssh2 hands to hostVerifier: its first field names the key type. */
export function parseHostKey(keyBlob: Buffer): HostKeyInfo {
  let keyType = 'unknown';
  if (keyBlob.length >= 4) {
    const len = keyBlob.readUInt32BE(0);
    if (len > 0 && len <= 64 && 4 + len <= keyBlob.length) keyType = keyBlob.toString('latin1', 4, 4 + len);
  }
  const base64 = keyBlob.toString('base64');
  return { keyType, base64, fingerprint: fingerprintOf(keyBlob), line: `${keyType} ${base64}` };
}

/** Fingerprint of an authorized_keys / known_hosts style line (`type base64 [comment]`). */
export function fingerprintOfLine(line: string): string {
  const b64 = line.trim().split(/\s+/)[1];
  if (!b64) throw new Error('Not a public key line');
  return fingerprintOf(Buffer.from(b64, 'base64'));
}

/** A known_hosts entry; OpenSSH writes non-default ports as `[host]:port`. */
export function knownHostsLine(host: string, port: number, key: HostKeyInfo): string {
  const name = port === 22 ? host : `[${host}]:${port}`;
  return `${name} ${key.keyType} ${key.base64}`;
}
