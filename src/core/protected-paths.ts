/**
 * Remote directories whose loss wrecks a host. Deleting or renaming exactly one of them (or `/`)
 * is refused, and so is a `full` push (rsync --delete, the target mirrors the source) into one:
 * `rm -rf -- /etc` or a mirror of a small staging tree onto /usr is one typo away from routine
 * work. Paths *below* them stay allowed: that is the everyday work of both.
 */
import path from 'node:path';
import { BadRequestError } from './errors.js';

const PROTECTED_DIRS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt',
  '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/var', '/snap',
  '/usr/bin', '/usr/lib', '/usr/lib64', '/usr/local', '/usr/sbin', '/usr/share', '/var/lib', '/var/log',
]);

/**
 * The protected directory `p` names, if any. Relative paths act on the login directory, so `.`,
 * `..` and the empty path are refused as well.
 */
export function protectedTarget(p: string): string | null {
  const normalized = path.posix.normalize(p);
  if (!normalized.startsWith('/')) {
    // Only `..` steps (or `.`): the login directory or one of its ancestors, possibly `/`.
    const onlyUp = normalized.replace(/\/+$/, '').split('/').every((s) => s === '..' || s === '.' || s === '');
    return onlyUp ? normalized : null;
  }
  const clean = normalized.length > 1 ? normalized.replace(/\/+$/, '') : normalized;
  return PROTECTED_DIRS.has(clean) ? clean : null;
}

/**
 * A `full` push deletes whatever the source lacks in the target: refused into a protected
 * directory (400, naming the server when the directory is its own default).
 */
export function refuseFullPushInto(mode: string, target: string, server?: string): void {
  if (mode !== 'full') return;
  const hit = protectedTarget(target);
  if (!hit) return;
  const whose = server ? ` (the target of server "${server}")` : '';
  throw new BadRequestError(`A full push deletes what the source lacks; it is refused into ${hit}${whose}. Choose a directory below it.`, 'protected_path');
}
