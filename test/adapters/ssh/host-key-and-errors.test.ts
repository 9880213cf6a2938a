import net from 'node:net';
import { generateKey } from '../../modules/ssh-key-presets/keygen.js';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { HostKeyMismatchError, SshConnectionError, SshPool, mapConnectError } from '../../../src/adapters/ssh/index.js';
import { fingerprintOfLine } from '../../../src/adapters/ssh/host-key.js';
import { freePort, targetFor } from '../../fixtures/sshd.js';

const sshd = inject('sshd');
const pools: SshPool[] = [];
function newPool(opts: ConstructorParameters<typeof SshPool>[0] = {}): SshPool {
  const p = new SshPool(opts);
  pools.push(p);
  return p;
}
afterAll(() => Promise.all(pools.map((p) => p.closeAll())));

async function failure(p: Promise<unknown>): Promise<SshConnectionError> {
  const err = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SshConnectionError);
  return err as SshConnectionError;
}

describe('host key pinning', () => {
  it('computes fingerprints exactly like ssh-keygen -l', () => {
    expect(fingerprintOfLine(sshd.hostPublicKey)).toBe(sshd.hostKeyFingerprint);
  });

  it('trusts on first use, reports the key once, and exposes it', async () => {
    const onHostKeyPinned = vi.fn();
    const pool = newPool({ onHostKeyPinned });
    const t = { ...targetFor(sshd, 'key', 42), hostKeyFingerprint: null };
    await pool.exec(t, 'true');
    await pool.exec(t, 'true');
    expect(onHostKeyPinned).toHaveBeenCalledTimes(1);
    expect(onHostKeyPinned).toHaveBeenCalledWith(42, sshd.hostKeyFingerprint);
    expect(pool.lastFingerprint(t)).toBe(sshd.hostKeyFingerprint);
    const hk = await pool.fetchHostKey(t);
    expect(hk.line).toBe(sshd.hostPublicKey);
  });

  it('accepts the matching pin without calling onHostKeyPinned', async () => {
    const onHostKeyPinned = vi.fn();
    const pool = newPool({ onHostKeyPinned });
    expect((await pool.exec(targetFor(sshd, 'password'), 'echo ok')).stdout).toBe('ok\n');
    expect(onHostKeyPinned).not.toHaveBeenCalled();
  });

  it('rejects a changed host key, naming both fingerprints', async () => {
    const wrong = `SHA256:${'A'.repeat(43)}`;
    const onHostKeyPinned = vi.fn();
    const pool = newPool({ onHostKeyPinned });
    const err = await failure(pool.exec({ ...targetFor(sshd, 'key'), hostKeyFingerprint: wrong }, 'true'));
    expect(err).toBeInstanceOf(HostKeyMismatchError);
    expect(err.kind).toBe('host_key_mismatch');
    expect(err.message).toBe(
      `Host key for 127.0.0.1:${sshd.port} changed: expected ${wrong}, got ${sshd.hostKeyFingerprint}`,
    );
    expect((err as HostKeyMismatchError).expected).toBe(wrong);
    expect((err as HostKeyMismatchError).actual).toBe(sshd.hostKeyFingerprint);
    expect(onHostKeyPinned).not.toHaveBeenCalled();
    expect(pool.stats().connections).toBe(0);
  });

  it('does not reuse a TOFU connection for a target pinned to a different key', async () => {
    const pool = newPool();
    const t = { ...targetFor(sshd, 'key'), hostKeyFingerprint: null };
    await pool.exec(t, 'true');
    const err = await failure(pool.exec({ ...t, hostKeyFingerprint: `SHA256:${'B'.repeat(43)}` }, 'true'));
    expect(err.kind).toBe('host_key_mismatch');
  });
});

describe('connection error mapping', () => {
  it('maps a closed port to refused', async () => {
    const port = await freePort();
    const err = await failure(newPool().exec({ ...targetFor(sshd, 'key'), port }, 'true'));
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(`Connection refused by 127.0.0.1:${port}`);
    expect(err.statusCode).toBe(502);
  });

  it('maps a wrong password to auth_failed without leaking it', async () => {
    const password = 'wrong-Secret-123';
    const t = { ...targetFor(sshd, 'password'), auth: { type: 'password' as const, password } };
    const err = await failure(newPool().exec(t, 'true'));
    expect(err.kind).toBe('auth_failed');
    expect(err.message).toBe(`Authentication failed for ${sshd.username}@127.0.0.1`);
    expect(JSON.stringify({ m: err.message, s: err.stack })).not.toContain(password);
  });

  it('maps an unauthorized key to auth_failed', async () => {
    const other = generateKey('ed25519');
    const t = { ...targetFor(sshd, 'key'), auth: { type: 'key' as const, privateKey: other.privateKey } };
    const err = await failure(newPool().exec(t, 'true'));
    expect(err.kind).toBe('auth_failed');
    expect(err.message).not.toContain('PRIVATE KEY');
  });

  it('maps an unparseable key to auth_failed without echoing it', async () => {
    const junk = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-key-secret\n-----END OPENSSH PRIVATE KEY-----\n';
    const t = { ...targetFor(sshd, 'key'), auth: { type: 'key' as const, privateKey: junk } };
    const err = await failure(newPool().exec(t, 'true'));
    expect(err.kind).toBe('auth_failed');
    expect(err.message).not.toContain('not-a-key-secret');
  });

  it('maps a server that never speaks SSH to timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const err = await failure(newPool({ connectTimeoutMs: 500 }).exec({ ...targetFor(sshd, 'key'), port }, 'true'));
      expect(err.kind).toBe('timeout');
      expect(err.message).toBe(`Connection to 127.0.0.1:${port} timed out`);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('maps resolver failures to dns (checked offline: no lookups leave this machine)', () => {
    const ep = { host: 'db.example.invalid', port: 22, username: 'u' };
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const err = mapConnectError(Object.assign(new Error(`getaddrinfo ${code} db.example.invalid`), { code }), ep);
      expect(err.kind).toBe('dns');
      expect(err.message).toBe('Could not resolve host name db.example.invalid');
    }
  });
});
