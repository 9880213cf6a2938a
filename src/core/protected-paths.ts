/**
 * Remote directories whose loss wrecks a host. Deleting or renaming exactly one of them (or `/`)
 * is refused, and so is a `full` push (rsync --delete, the target mirrors the source) into one:
 * `rm -rf -- /etc` or a mirror of a small staging tree onto /usr is one typo away from routine
 * work. Paths *below* them stay allowed: that is the everyday work of both.
 *
 * The kernel's pseudo-filesystems (/proc, /sys, /dev) are different: nothing below them is an
 * operator's file, and /proc also reaches the whole filesystem again (`/proc/self/root/etc` IS
 * /etc, `/proc/1/cwd` is init's working directory). So a full push into them or anywhere below
 * them is refused, and so is every file operation (delete, rename, mkdir) touching them.
 *
 * The guard judges a path by its NAME, after POSIX normalisation (`//`, `.`, `a/..` collapse);
 * it never asks the remote host, so a remote symlink (say /srv/x -> /etc) is not seen through.
 * A relative path acts on the login directory, whose depth is unknown: one that climbs out with
 * `..` is judged as if the climb had reached `/` (`../../etc` is treated as /etc).
 */
import path from 'node:path';
import { BadRequestError } from './errors.js';

const PROTECTED_DIRS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt',
  '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/var', '/snap',
  '/usr/bin', '/usr/lib', '/usr/lib64', '/usr/local', '/usr/sbin', '/usr/share', '/var/lib', '/var/log',
]);

/** Kernel pseudo-filesystems: the directory itself and everything below it is off limits. */
const PSEUDO_FS = ['/proc', '/sys', '/dev'];

/**
 * The absolute path `p` names after normalisation, or, for a relative path that climbs out of
 * the login directory, the path it names if the climb reached `/`. Null for a relative path
 * that stays below the login directory.
 */
function judgedPath(p: string): string | null {
  const normalized = path.posix.normalize(p);
  if (normalized.startsWith('/')) return normalized.length > 1 ? normalized.replace(/\/+$/, '') : normalized;
  const parts = normalized.split('/').filter((s) => s !== '' && s !== '.');
  if (parts[0] !== '..') return null;
  const rest = parts.filter((s) => s !== '..');
  return `/${rest.join('/')}`;
}

/**
 * The protected directory `p` names, if any. Relative paths act on the login directory, so `.`,
 * `..` and the empty path are refused as well (and `../../etc`, which may be /etc).
 */
export function protectedTarget(p: string): string | null {
  const normalized = path.posix.normalize(p);
  if (!normalized.startsWith('/')) {
    // Only `..` steps (or `.`): the login directory or one of its ancestors, possibly `/`.
    const onlyUp = normalized.replace(/\/+$/, '').split('/').every((s) => s === '..' || s === '.' || s === '');
    if (onlyUp) return normalized;
  }
  const judged = judgedPath(p);
  return judged !== null && PROTECTED_DIRS.has(judged) ? judged : null;
}

/** The pseudo-filesystem (`/proc`, `/sys` or `/dev`) that `p` is or lies below, if any. */
export function pseudoFsTarget(p: string): string | null {
  const judged = judgedPath(p);
  if (judged === null) return null;
  return PSEUDO_FS.find((root) => judged === root || judged.startsWith(`${root}/`)) ?? null;
}

/** What a full push (mirror with deletion) into `p` would wreck: a protected directory or a pseudo-filesystem. */
export function fullPushForbidden(p: string): string | null {
  return protectedTarget(p) ?? pseudoFsTarget(p);
}

/**
 * A `full` push deletes whatever the source lacks in the target: refused into a protected
 * directory or anywhere in a pseudo-filesystem (400, naming the server when the directory is
 * its own default).
 */
export function refuseFullPushInto(mode: string, target: string, server?: string): void {
  if (mode !== 'full') return;
  const hit = fullPushForbidden(target);
  if (!hit) return;
  const whose = server ? ` (the target of server "${server}")` : '';
  const pseudo = pseudoFsTarget(target) === hit;
  const where = pseudo ? `${hit} or anywhere below it${whose}.` : `${hit}${whose}. Choose a directory below it.`;
  throw new BadRequestError(`A full push deletes what the source lacks; it is refused into ${where}`, 'protected_path');
}
