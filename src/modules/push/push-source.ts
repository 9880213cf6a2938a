import type { StagingPaths } from '../staging/staging-paths.js';

/**
 * The local side of a push: an existing directory (400) inside staging (403). Every later step
 * uses the returned resolved path, never the input, so a symlink swapped in afterwards cannot
 * redirect the push.
 */
export function resolveSourceDir(staging: StagingPaths, input: string): Promise<string> {
  return staging.resolveStagingDir(input, 'Source path');
}

/** The remote directory: the request's, else the server's own, else /tmp/sync. */
export function effectiveTargetPath(requested: string | null | undefined, serverDefault: string | null | undefined): string {
  const req = requested?.trim();
  if (req) return req;
  const own = serverDefault?.trim();
  return own || '/tmp/sync';
}
