/**
 * OpenSSH's own connection reuse, the strongest peer for anything the product runs over its
 * pooled connection: a ControlMaster opened before any timing, then every `ssh` through it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SshdInstance } from '../../test/fixtures/sshd.js';
import { requireTool } from './tools.js';

const run$ = promisify(execFile);

export interface SshClient {
  ssh: string;
  /** Key auth, no host-key prompt, no agent: the options every ssh here uses. */
  common: string[];
  /** `common` plus the ControlMaster options: the first use opens the master, the rest share it. */
  mux: string[];
  dest: string;
  /** Opens the master (untimed) and checks it answers. */
  open(): Promise<void>;
  close(): Promise<void>;
}

export function sshClient(sshd: SshdInstance): SshClient {
  const ssh = requireTool(['/usr/bin/ssh'], 'openssh-client');
  const ctlDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-mux-'));
  const common = [
    '-p', String(sshd.port), '-i', sshd.privateKeyPath,
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR',
  ];
  const mux = ['-o', 'ControlMaster=auto', '-o', `ControlPath=${ctlDir}/%C`, '-o', 'ControlPersist=60', ...common];
  const dest = `${sshd.username}@127.0.0.1`;
  return {
    ssh,
    common,
    mux,
    dest,
    async open() {
      await run$(ssh, [...mux, dest, 'true'], { timeout: 15_000 });
      await run$(ssh, [...mux, '-O', 'check', dest], { timeout: 15_000 });
    },
    async close() {
      await run$(ssh, [...mux, '-O', 'exit', dest], { timeout: 15_000 }).catch(() => {});
      fs.rmSync(ctlDir, { recursive: true, force: true });
    },
  };
}
