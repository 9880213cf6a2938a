/**
 * Rules for remote paths that several remote operations share. Remote paths are never resolved
 * locally: they only ever reach a remote shell through `shellQuote`, or SFTP as plain strings.
 */
import path from 'node:path';
import { BadRequestError } from '../../core/errors.js';

export const DEFAULT_TARGET_DIR = '/tmp/sync';

/** Refuse what no remote call can carry (a NUL cannot pass through argv): a 400, never a 500. */
export function assertNoNul(value: string, field: string): void {
  if (value.includes('\0')) throw new BadRequestError(`${field} contains a NUL byte`);
}

/** Spec file-ops rule: trailing slashes are stripped, and a path that becomes empty is `/`. */
export function stripTrailingSlash(p: string): string {
  return p.replace(/\/+$/, '') || '/';
}

/** True when a `..` path component is present (either separator, as names may come from Windows). */
export function hasDotDotComponent(p: string): boolean {
  return p.split(/[/\\]/).includes('..');
}

/** The directory a remote operation works in: the body's, else the server's own, else `/tmp/sync`. */
export function effectiveTargetDir(bodyTarget: string | null | undefined, serverTarget: string | null): string {
  if (bodyTarget && bodyTarget.trim()) return bodyTarget;
  if (serverTarget && serverTarget.trim()) return serverTarget;
  return DEFAULT_TARGET_DIR;
}

/**
 * Directories whose loss wrecks a host. Deleting or renaming exactly one of them (or `/`) is
 * refused — deliberately beyond the spec, since `rm -rf -- /etc` is one typo away from a routine
 * cleanup. Paths *below* them stay allowed: that is the everyday work of this endpoint.
 */
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
