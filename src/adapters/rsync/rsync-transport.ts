/**
 * rsync over OpenSSH's own client (rsync cannot use our ssh2 connections), configured so that
 * it trusts exactly the host key our pool verified, authenticates with the server's stored
 * credentials, and never exposes a secret on a command line or in the environment.
 */
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HostKeyMismatchError } from '../ssh/errors.js';
import { knownHostsLine, normalizeFingerprint, parseHostKey } from '../ssh/host-key.js';
import { SshPool } from '../ssh/ssh-pool.js';
import type { HostKeyInfo, SshTarget } from '../ssh/types.js';

export interface HostKeySource {
  fetchHostKey(target: SshTarget): Promise<HostKeyInfo>;
}

export interface PrepareRsyncSshOptions {
  connectTimeoutSec?: number;
  /**
   * A connection that answers no keepalive for this long is dead: ssh sends one every third of
   * it and gives up after three unanswered. Default 45 s.
   */
  stallTimeoutSec?: number;
  /** Where the server's host key comes from; normally the app's SshPool. Without it a short-lived pool is used. */
  hostKeys?: HostKeySource;
  /** A host key already at hand (`ssh-ed25519 AAAA…`), skipping the fetch. Still checked against the pin. */
  hostPublicKey?: string;
}

export interface RsyncSsh {
  /** The value for `rsync -e`. */
  sshCommand: string;
  /** Extra environment for spawning rsync. */
  env: NodeJS.ProcessEnv;
  /**
   * The private temp dir (0700) holding the key / password and known_hosts; a safe place for the
   * transfer's own files too (runRsync's `stdoutFile`), which go with it.
   */
  dir: string;
  /** Removes the temp dir holding the key / password. Call it in a `finally`. */
  cleanup(): Promise<void>;
}

/**
 * Temp dirs not yet cleaned up. A caller that forgets `cleanup()` (or crashes between prepare
 * and cleanup) must not leave a private key or password in /tmp past process exit.
 */
const pendingDirs = new Set<string>();
let exitHookInstalled = false;
function trackDir(dir: string): void {
  pendingDirs.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const d of pendingDirs) rmSync(d, { recursive: true, force: true });
    });
  }
}

/**
 * Build the `ssh` command line for `rsync -e` plus its environment. The temp dir (mode 0700)
 * holds the known_hosts file, and the private key (0600) or an askpass script (0700) that
 * prints the password from a 0600 file. Always `await cleanup()` when rsync has finished.
 */
export async function prepareRsyncSsh(target: SshTarget, opts: PrepareRsyncSshOptions = {}): Promise<RsyncSsh> {
  const connectTimeoutSec = opts.connectTimeoutSec ?? 10;
  const aliveIntervalSec = Math.max(1, Math.round((opts.stallTimeoutSec ?? 45) / 3));
  const hostKey = await resolveHostKey(target, opts, connectTimeoutSec);
  if (target.hostKeyFingerprint) {
    const expected = normalizeFingerprint(target.hostKeyFingerprint);
    if (hostKey.fingerprint !== expected) {
      throw new HostKeyMismatchError(target.host, target.port, expected, hostKey.fingerprint);
    }
  }

  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-rsync-'));
  trackDir(dir);
  const cleanup = async (): Promise<void> => {
    await rm(dir, { recursive: true, force: true });
    pendingDirs.delete(dir);
  };
  try {
    await chmod(dir, 0o700);
    const knownHosts = path.join(dir, 'known_hosts');
    await writeFile(knownHosts, `${knownHostsLine(target.host, target.port, hostKey)}\n`, { mode: 0o600, flag: 'wx' });

    const args = [
      'ssh', '-F', '/dev/null', // the user's / system ssh_config must not add ProxyCommand, ControlMaster, ...
      '-p', String(target.port),
      '-o', 'StrictHostKeyChecking=yes',
      '-o', `UserKnownHostsFile=${knownHosts}`,
      '-o', 'GlobalKnownHostsFile=/dev/null',
      '-o', 'CheckHostIP=no',
      '-o', 'UpdateHostKeys=no',
      '-o', 'IdentitiesOnly=yes',
      '-o', 'IdentityAgent=none',
      '-o', `ConnectTimeout=${connectTimeoutSec}`,
      '-o', `ServerAliveInterval=${aliveIntervalSec}`,
      '-o', 'ServerAliveCountMax=3',
      '-o', 'ControlMaster=no',
      '-o', 'ControlPath=none',
      '-o', 'ForwardAgent=no',
      '-o', 'ForwardX11=no',
      '-o', 'LogLevel=ERROR',
    ];
    const env: NodeJS.ProcessEnv = {};
    // A passphrase or password reaches ssh only through askpass reading a 0600 file.
    let secret: string | undefined;
    if (target.auth.type === 'key') {
      const keyFile = path.join(dir, 'id');
      const key = target.auth.privateKey.endsWith('\n') ? target.auth.privateKey : `${target.auth.privateKey}\n`;
      await writeFile(keyFile, key, { mode: 0o600, flag: 'wx' });
      secret = target.auth.passphrase;
      args.push(
        '-i', keyFile,
        '-o', `BatchMode=${secret === undefined ? 'yes' : 'no'}`,
        '-o', 'PreferredAuthentications=publickey',
        '-o', 'PasswordAuthentication=no',
        '-o', 'KbdInteractiveAuthentication=no',
      );
    } else {
      secret = target.auth.password;
      args.push(
        '-o', 'BatchMode=no',
        '-o', 'PreferredAuthentications=password,keyboard-interactive',
        '-o', 'PubkeyAuthentication=no',
        '-o', 'NumberOfPasswordPrompts=1',
      );
    }
    if (secret !== undefined) {
      const secretFile = path.join(dir, 'secret');
      const askpass = path.join(dir, 'askpass.sh');
      await writeFile(secretFile, secret, { mode: 0o600, flag: 'wx' });
      await writeFile(askpass, `#!/bin/sh\nexec cat '${secretFile.replaceAll("'", `'\\''`)}'\n`, { mode: 0o700, flag: 'wx' });
      Object.assign(env, { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' });
    }
    return { sshCommand: args.map(rsyncQuote).join(' '), env, dir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function resolveHostKey(target: SshTarget, opts: PrepareRsyncSshOptions, timeoutSec: number): Promise<HostKeyInfo> {
  if (opts.hostPublicKey) {
    const b64 = opts.hostPublicKey.trim().split(/\s+/)[1];
    if (!b64) throw new Error('hostPublicKey must look like "ssh-ed25519 AAAA…"');
    return parseHostKey(Buffer.from(b64, 'base64'));
  }
  if (opts.hostKeys) return opts.hostKeys.fetchHostKey(target);
  const pool = new SshPool({ connectTimeoutMs: timeoutSec * 1000, idleMs: 1000 });
  try {
    return await pool.fetchHostKey(target);
  } finally {
    await pool.closeAll();
  }
}

/**
 * Quote one word for rsync's `-e` splitter, which is not a shell: it honours single and
 * double quotes but not backslashes, and a doubled quote inside quotes is a literal quote.
 */
export function rsyncQuote(word: string): string {
  return `'${word.replaceAll("'", "''")}'`;
}

export type RsyncMode = 'incremental' | 'full' | 'checksum';

export interface BuildRsyncArgvOptions {
  /** Local directory whose contents are copied. */
  source: string;
  target: SshTarget;
  remotePath: string;
  /** incremental: size+mtime; full: also delete remote files missing locally; checksum: compare contents. */
  mode: RsyncMode;
  dryRun?: boolean;
  itemize?: boolean;
  /** Report overall progress on stdout (`--info=progress2`). */
  progress?: boolean;
  /** `--stats` (on unless false), needed by parseRsyncStats. */
  stats?: boolean;
  /**
   * `--timeout`: both ends give up after this many seconds without data. rsync hands it to the
   * remote rsync, so a stalled network (where the server never sees the connection close) cannot
   * leave that one running forever.
   */
  ioTimeoutSec?: number;
  sshCommand: string;
  /** More options, inserted before the operands. */
  extra?: string[];
}

/** rsync argv (for spawn without a shell): contents of `source` into `user@host:remotePath/`. */
export function buildRsyncArgv(o: BuildRsyncArgvOptions): string[] {
  if (!o.remotePath) throw new Error('remotePath must not be empty');
  const argv = ['-a', '-s']; // -s (--protect-args): paths travel in the protocol, never through the remote shell
  if (o.mode === 'full') argv.push('--delete');
  if (o.mode === 'checksum') argv.push('--checksum');
  if (o.dryRun) argv.push('-n');
  if (o.itemize) argv.push('--itemize-changes');
  // One overall progress line per update, not one per file; names stay out of it.
  if (o.progress) argv.push('--info=progress2');
  if (o.stats !== false) argv.push('--stats');
  if (o.ioTimeoutSec) argv.push(`--timeout=${Math.max(1, Math.round(o.ioTimeoutSec))}`);
  argv.push('-e', o.sshCommand, ...(o.extra ?? []));
  const src = o.source.endsWith('/') ? o.source : `${o.source}/`;
  const host = o.target.host.includes(':') ? `[${o.target.host}]` : o.target.host;
  const dest = o.remotePath.endsWith('/') ? o.remotePath : `${o.remotePath}/`;
  argv.push('--', src, `${o.target.username}@${host}:${dest}`);
  return argv;
}
