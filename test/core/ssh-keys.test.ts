import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { parsePrivateKey, toSsh2PrivateKey } from '../../src/core/ssh-keys.js';
import { KEY_KINDS, ed25519Pkcs8, generateKey } from '../modules/ssh-key-presets/keygen.js';

describe('ssh key parsing', () => {
  it.each(KEY_KINDS)('derives the public key of a %s key exactly as ssh-keygen -y', (kind) => {
    const key = generateKey(kind);
    const parsed = parsePrivateKey(key.privateKey);
    expect(parsed.publicKey).toBe(key.publicKey);
    expect(parsed.normalized).toBe(`${key.privateKey.trim()}\n`);
    // ssh2 itself can read what the pool hands it, and it is the same key.
    const forSsh2 = ssh2.utils.parseKey(toSsh2PrivateKey(key.privateKey));
    if (forSsh2 instanceof Error || Array.isArray(forSsh2)) throw new Error('ssh2 could not parse the converted key');
    expect(`${forSsh2.type} ${forSsh2.getPublicSSH().toString('base64')}`).toBe(key.publicKey);
  });

  it('accepts CRLF line endings and surrounding blanks', () => {
    const key = generateKey('ed25519');
    const pasted = `\n  ${key.privateKey.replace(/\n/g, '\r\n')}  \n`;
    expect(parsePrivateKey(pasted).publicKey).toBe(key.publicKey);
  });

  it('rejects other armours, encrypted keys and unsupported PKCS#8 types with a 400', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ec-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ecdsa', '-m', 'PEM', '-N', '', '-f', path.join(dir, 'k')]);
      const ecPem = fs.readFileSync(path.join(dir, 'k'), 'utf8');
      expect(ecPem).toContain('BEGIN EC PRIVATE KEY');
      for (const text of [ecPem, ed25519Pkcs8(), generateKey('rsa', 'pass-phrase').privateKey, '', 'x']) {
        expect(() => parsePrivateKey(text)).toThrow(expect.objectContaining({ statusCode: 400 }));
      }
      expect(() => parsePrivateKey(generateKey('ecdsa', 'pass-phrase').privateKey)).toThrow(/passphrase/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
