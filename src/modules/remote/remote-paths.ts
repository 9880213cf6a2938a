/**
 * Rules for remote paths that several remote operations share. Remote paths are never resolved
 * locally: they only ever reach a remote shell through `shellQuote`, or SFTP as plain strings.
 */
import { BadRequestError } from '../../core/errors.js';

export const DEFAULT_TARGET_DIR = '/tmp/sync';

/** Refuse what no remote call can carry (a NUL cannot pass through argv): a 400, never a 500. */
export function assertNoNul(value: string, field: string): void {
  if (value.includes('\0')) throw new BadRequestError(`${field} contains a NUL byte`, 'path_invalid');
}

/** Trailing slashes are stripped (file-ops), and a path that becomes empty is `/`. */
export function stripTrailingSlash(p: string): string {
  return p.replace(/\/+$/, '') || '/';
}

/** True when a `..` path component is present (either separator, as names may come from Windows). */
export function hasDotDotComponent(p: string): boolean {
  return p.split(/[/\\]/).includes('..');
}

/** The directory a remote operation works in: the body's, else the server's own, else `/tmp/sync`. */
export function effectiveTargetDir(bodyTarget: string | null | undefined, serverTarget: string | null): string {
  if (bodyTarget?.trim()) return bodyTarget;
  if (serverTarget?.trim()) return serverTarget;
  return DEFAULT_TARGET_DIR;
}

