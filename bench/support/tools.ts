/**
 * Tools the baselines need (prsync, unzip, curl, sshd…): a scenario never skips a peer silently.
 * A missing tool is installed with apt-get when the bench runs as root (as the test fixtures do
 * for openssh-server and rsync); otherwise the scenario fails with the package to install.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const installed = new Set<string>();

/**
 * Returns the first of `paths` that exists, installing Debian package `pkg` first if none does.
 * Throws (naming the package) when it cannot be installed.
 */
export function requireTool(paths: string[], pkg: string): string {
  const find = () => paths.find((p) => fs.existsSync(p));
  const found = find();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(`${paths[0]} is missing and the bench is not root: install it with: sudo apt-get install -y ${pkg}`);
  }
  if (!installed.has(pkg)) {
    installed.add(pkg);
    process.stderr.write(`bench: installing ${pkg} (apt-get install -y ${pkg})…\n`);
    try {
      // Try without a fresh index first: `apt-get update` is the slow part and usually not needed.
      execFileSync('sh', ['-c', `apt-get install -y ${pkg} || (apt-get update && apt-get install -y ${pkg})`], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeout: 600_000,
      });
    } catch (err) {
      throw new Error(`apt-get install -y ${pkg} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const after = find();
  if (!after) throw new Error(`apt-get installed ${pkg} but none of ${paths.join(', ')} exists`);
  return after;
}
