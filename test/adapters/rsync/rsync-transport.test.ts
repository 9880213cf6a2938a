import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey } from '../../modules/ssh-key-presets/keygen.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  buildRsyncArgv, parseRsyncStats, prepareRsyncSsh, runRsync, type RsyncSsh,
} from '../../../src/adapters/rsync/index.js';
import { HostKeyMismatchError, SshPool } from '../../../src/adapters/ssh/index.js';
import type { SshTarget } from '../../../src/adapters/ssh/types.js';
import { targetFor } from '../../fixtures/sshd.js';

// The sshd is on this machine: the pushed files can be compared on disk directly.
const sshd = inject('sshd');
const pool = new SshPool();
const remoteBase = path.join(sshd.homeDir, `rsync-${randomUUID()}`);
let src: string;

const FILES: Record<string, Buffer> = {
  'top.txt': Buffer.from('top level\n'),
  'nested/deeper/data.bin': randomBytes(300_000),
  'nested/with space ünïcödé ☃.txt': Buffer.from('spaces and unicode\n'),
  "nested/it's $(odd) `name`.txt": Buffer.from('shell metacharacters\n'),
  'empty.txt': Buffer.alloc(0),
};

beforeAll(async () => {
  // rsync creates only the last component of the destination.
  await pool.execOrThrow(targetFor(sshd, 'key'), ['mkdir', '-p', '--', remoteBase]);
  src = mkdtempSync(path.join(tmpdir(), 'fleet-rsync-src-'));
  for (const [rel, data] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
    writeFileSync(path.join(src, rel), data);
  }
});
afterAll(async () => {
  rmSync(src, { recursive: true, force: true });
  await pool.exec(targetFor(sshd, 'key'), ['rm', '-rf', '--', remoteBase]);
  await pool.closeAll();
});

/** sha256 of every regular file below `dir`, keyed by relative path. */
function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function tempDirOf(ssh: RsyncSsh): string {
  const m = /UserKnownHostsFile=([^']+)\/known_hosts/.exec(ssh.sshCommand);
  if (!m) throw new Error(`no known_hosts in ${ssh.sshCommand}`);
  return m[1];
}

async function push(target: SshTarget, remotePath: string, mode: 'incremental' | 'full' | 'checksum', extra?: string[]) {
  const ssh = await prepareRsyncSsh(target, { hostKeys: pool, connectTimeoutSec: 5 });
  try {
    const argv = buildRsyncArgv({ source: src, target, remotePath, mode, sshCommand: ssh.sshCommand, extra });
    return { result: await runRsync(argv, ssh.env, { timeoutMs: 30_000 }), ssh };
  } finally {
    await ssh.cleanup();
  }
}

describe('rsync over OpenSSH', () => {
  it('pushes a tree with key auth, byte for byte, and cleans up its temp dir', async () => {
    const t = targetFor(sshd, 'key');
    const dest = path.join(remoteBase, 'key auth dir');
    const { result, ssh } = await push(t, dest, 'incremental');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(digestTree(dest)).toEqual(digestTree(src));
    expect(result.stats).toMatchObject({ regularFilesTransferred: Object.keys(FILES).length });
    expect(result.stats!.totalFileSize).toBe(Object.values(FILES).reduce((n, b) => n + b.length, 0));
    expect(existsSync(tempDirOf(ssh))).toBe(false);
  });

  it('reports progress read from its output file, a few times a second, and still reads the stats', async () => {
    const t = targetFor(sshd, 'key');
    const ssh = await prepareRsyncSsh(t, { hostKeys: pool });
    try {
      const argv = buildRsyncArgv({
        source: src, target: t, remotePath: path.join(remoteBase, 'progress'), mode: 'incremental', progress: true, sshCommand: ssh.sshCommand,
        extra: ['--bwlimit=200'], // 200 KiB/s: the 300 KB file takes over a second
      });
      const seen: Array<{ at: number; bytes: number; percent: number }> = [];
      const file = path.join(ssh.dir, 'stdout');
      const result = await runRsync(argv, ssh.env, {
        timeoutMs: 30_000,
        progress: { file, intervalMs: 200, onProgress: (p) => seen.push({ at: Date.now(), bytes: p.bytes, percent: p.percent }) },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(result.stats).toMatchObject({ regularFilesTransferred: Object.keys(FILES).length });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < seen.length; i++) expect(seen[i].at - seen[i - 1].at).toBeGreaterThanOrEqual(150);
      expect(seen.at(-1)!.bytes).toBeGreaterThan(0);
    } finally {
      await ssh.cleanup();
    }
  });

  it('pushes with password auth through askpass, never exposing the password', async () => {
    const t = targetFor(sshd, 'password');
    const ssh = await prepareRsyncSsh(t, { hostKeys: pool });
    const dir = tempDirOf(ssh);
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(ssh.sshCommand).not.toContain(sshd.password);
      expect(JSON.stringify(ssh.env)).not.toContain(sshd.password);
      expect(ssh.env).toMatchObject({ SSH_ASKPASS_REQUIRE: 'force' });
      expect(statSync(ssh.env.SSH_ASKPASS!).mode & 0o777).toBe(0o700);
      // Relative marker (no '/'): a remote shell expanding this would create it in the home dir.
      const marker = `fleet-rsync-marker-${randomUUID()}`;
      const dest = path.join(remoteBase, `pw $(touch ${marker}) \`touch ${marker}\`; dir`);
      const argv = buildRsyncArgv({ source: src, target: t, remotePath: dest, mode: 'full', sshCommand: ssh.sshCommand });
      const result = await runRsync(argv, ssh.env);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(digestTree(dest)).toEqual(digestTree(src));
      expect(existsSync(path.join(sshd.homeDir, marker))).toBe(false);
      expect(existsSync(path.join(remoteBase, marker))).toBe(false);
    } finally {
      await ssh.cleanup();
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('full mode deletes extra remote files; checksum mode then transfers nothing', async () => {
    const t = targetFor(sshd, 'key');
    const dest = path.join(remoteBase, 'full');
    expect((await push(t, dest, 'incremental')).result.exitCode).toBe(0);
    await pool.execOrThrow(t, `echo stale > ${dest}/stale.txt && mkdir -p ${dest}/old/dir`);

    const incremental = await push(t, dest, 'incremental');
    expect(incremental.result.stats!.filesDeleted).toBe(0);
    expect(existsSync(path.join(dest, 'stale.txt'))).toBe(true);

    const full = await push(t, dest, 'full');
    expect(full.result.exitCode, full.result.stderr).toBe(0);
    expect(full.result.stats!.filesDeleted).toBe(3);
    expect(existsSync(path.join(dest, 'stale.txt'))).toBe(false);
    expect(digestTree(dest)).toEqual(digestTree(src));

    const checksum = await push(t, dest, 'checksum');
    expect(checksum.result.stats).toMatchObject({ regularFilesTransferred: 0, filesCreated: 0, filesDeleted: 0 });
  });

  it('refuses a wrong pinned fingerprint before running rsync', async () => {
    const wrong = `SHA256:${'Z'.repeat(43)}`;
    await expect(prepareRsyncSsh({ ...targetFor(sshd, 'key'), hostKeyFingerprint: wrong }, { hostKeys: pool })).rejects.toThrow(
      HostKeyMismatchError,
    );
  });

  it('ssh itself rejects the server when known_hosts holds another key', async () => {
    const other = generateKey('ed25519').publicKey;
    const t = { ...targetFor(sshd, 'key'), hostKeyFingerprint: null };
    const ssh = await prepareRsyncSsh(t, { hostPublicKey: other });
    try {
      const argv = buildRsyncArgv({ source: src, target: t, remotePath: path.join(remoteBase, 'never'), mode: 'full', sshCommand: ssh.sshCommand });
      const result = await runRsync(argv, ssh.env);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/);
      expect(existsSync(path.join(remoteBase, 'never'))).toBe(false);
    } finally {
      await ssh.cleanup();
    }
  });

  it('an aborted rsync is killed and resolves as failed', async () => {
    const t = targetFor(sshd, 'key');
    const ssh = await prepareRsyncSsh(t, { hostKeys: pool });
    try {
      const argv = buildRsyncArgv({
        source: src, target: t, remotePath: path.join(remoteBase, 'aborted'), mode: 'full', sshCommand: ssh.sshCommand,
        extra: ['--bwlimit=20'], // 20 KiB/s: the 300 KB file keeps it busy for seconds
      });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 700);
      const started = Date.now();
      const result = await runRsync(argv, ssh.env, { signal: ac.signal, killGraceMs: 1000 });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(result.aborted).toBe(true);
      expect(result.exitCode).not.toBe(0);
    } finally {
      await ssh.cleanup();
    }
  });
});

describe('buildRsyncArgv', () => {
  const t: SshTarget = { ...targetFor(sshd, 'key'), host: '::1', username: 'deploy' };
  it('builds argv with protected args, trailing slashes and a bracketed IPv6 host', () => {
    expect(buildRsyncArgv({ source: '/src', target: t, remotePath: '/srv/a b', mode: 'full', dryRun: true, itemize: true, sshCommand: "'ssh'" })).toEqual([
      '-a', '-s', '--delete', '-n', '--itemize-changes', '--stats', '-e', "'ssh'", '--', '/src/', 'deploy@[::1]:/srv/a b/',
    ]);
    expect(buildRsyncArgv({ source: '/src/', target: { ...t, host: 'h' }, remotePath: 'rel/', mode: 'checksum', sshCommand: 'ssh', stats: false })).toEqual([
      '-a', '-s', '--checksum', '-e', 'ssh', '--', '/src/', 'deploy@h:rel/',
    ]);
  });

  it('gives both ends an I/O timeout, and ssh keepalives that give up within it (a stalled transfer must end)', async () => {
    expect(buildRsyncArgv({ source: '/s', target: t, remotePath: '/d', mode: 'incremental', sshCommand: 'ssh', ioTimeoutSec: 45 })).toContain('--timeout=45');
    const ssh = await prepareRsyncSsh(targetFor(sshd, 'key'), { hostPublicKey: sshd.hostPublicKey, stallTimeoutSec: 6 });
    await ssh.cleanup();
    expect(ssh.sshCommand).toContain("'ServerAliveInterval=2' '-o' 'ServerAliveCountMax=3'");
  });
});

describe('parseRsyncStats', () => {
  it('parses rsync 3.1/3.2 output with thousands separators', () => {
    const out = `
Number of files: 1,234 (reg: 1,000, dir: 234)
Number of created files: 3 (reg: 2, dir: 1)
Number of deleted files: 5 (reg: 5)
Number of regular files transferred: 1,002
Total file size: 12,345,678 bytes
Total transferred file size: 1,234 bytes
Literal data: 1,000 bytes
Matched data: 234 bytes
File list size: 0
File list generation time: 0.001 seconds
Total bytes sent: 2,000
Total bytes received: 38

sent 2,000 bytes  received 38 bytes  4,076.00 bytes/sec
`;
    expect(parseRsyncStats(out)).toEqual({
      filesTotal: 1234, regularFilesTotal: 1000, dirsTotal: 234, filesCreated: 3, filesDeleted: 5,
      regularFilesTransferred: 1002, totalFileSize: 12345678, totalTransferredFileSize: 1234, literalData: 1000,
      matchedData: 234, fileListSize: 0, totalBytesSent: 2000, totalBytesReceived: 38,
    });
  });

  it('parses rsync 3.0 wording and returns null without stats', () => {
    const out = 'Number of files: 7\nNumber of files transferred: 2\nTotal file size: 100 bytes\nTotal transferred file size: 40 bytes\n';
    expect(parseRsyncStats(out)).toMatchObject({ filesTotal: 7, regularFilesTransferred: 2, totalFileSize: 100, filesCreated: 0, filesDeleted: 0 });
    expect(parseRsyncStats('sent 1 bytes')).toBeNull();
  });
});
