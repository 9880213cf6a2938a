/** Real keys from OpenSSH's ssh-keygen, and what `ssh-keygen -y` says their public halves are. */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type KeyKind = 'ed25519' | 'ecdsa' | 'rsa' | 'rsa-pem' | 'rsa-pkcs8' | 'ecdsa-pkcs8';

export interface GeneratedKey {
  kind: KeyKind;
  privateKey: string;
  /** First two fields of `ssh-keygen -y -f key`. */
  publicKey: string;
}

const ARGS: Record<KeyKind, string[]> = {
  ed25519: ['-t', 'ed25519'],
  ecdsa: ['-t', 'ecdsa'],
  rsa: ['-t', 'rsa', '-b', '2048'],
  'rsa-pem': ['-t', 'rsa', '-b', '2048', '-m', 'PEM'],
  'rsa-pkcs8': ['-t', 'rsa', '-b', '2048', '-m', 'PKCS8'],
  'ecdsa-pkcs8': ['-t', 'ecdsa', '-m', 'PKCS8'],
};

export const KEY_KINDS = Object.keys(ARGS) as KeyKind[];

export function generateKey(kind: KeyKind, passphrase = ''): GeneratedKey {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-keygen-'));
  try {
    const file = path.join(dir, 'key');
    execFileSync('ssh-keygen', ['-q', ...ARGS[kind], '-N', passphrase, '-C', 'test@fleet', '-f', file], { stdio: 'ignore' });
    const privateKey = fs.readFileSync(file, 'utf8');
    const publicKey = passphrase
      ? fs.readFileSync(`${file}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ')
      : execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim().split(/\s+/).slice(0, 2).join(' ');
    return { kind, privateKey, publicKey };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An Ed25519 key in PKCS#8 PEM form, which ssh2 cannot use (ssh-keygen does not write it). */
export function ed25519Pkcs8(): string {
  return crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** The base64 body of a PEM/OpenSSH key: a chunk of secret material to look for in outputs. */
export function keyMaterial(privateKey: string): string {
  const lines = privateKey.trim().split('\n').filter((l) => !l.startsWith('-----'));
  return lines[Math.floor(lines.length / 2)]!;
}
