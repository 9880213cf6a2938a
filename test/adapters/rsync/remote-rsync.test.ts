import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteRsyncPath } from '../../../src/adapters/rsync/remote-rsync.js';

/** Runs the --rsync-path value as sshd's shell would, with rsync's arguments appended. */
function runRemote(rsyncPath: string, args: string, cwd: string): string {
  return execFileSync('sh', ['-c', `${rsyncPath} ${args}`], { cwd, encoding: 'utf8' });
}

describe('remoteRsyncPath', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('creates a missing parent of the target (rsync makes the last level) and then runs rsync', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'remote-rsync-'));
    dirs.push(home);
    const out = runRemote(remoteRsyncPath({ mkdir: "a b/it's/target/", idleKillSec: 90 }), '--version', home);
    expect(out).toMatch(/rsync\s+version/);
    expect(existsSync(path.join(home, "a b/it's"))).toBe(true);
    expect(existsSync(path.join(home, "a b/it's/target"))).toBe(false);
  });

  it('needs nothing created for a target directly in the home or under the root', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'remote-rsync-'));
    dirs.push(home);
    expect(runRemote(remoteRsyncPath({ mkdir: 'target', idleKillSec: 10 }), '--version', home)).toMatch(/rsync\s+version/);
    expect(runRemote(remoteRsyncPath({ mkdir: '/tmp', idleKillSec: 10 }), '--version', home)).toMatch(/rsync\s+version/);
  });
});
