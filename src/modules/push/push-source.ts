import fs from 'node:fs';
import { BadRequestError } from '../../core/errors.js';
import type { StagingPaths } from '../staging/staging-paths.js';

/**
 * The local side of a push: the resolved path must lie inside staging (403) and be a directory
 * (400). Every later step uses the returned resolved path, never the input, so a symlink swapped
 * in afterwards cannot redirect the push.
 */
export async function resolveSourceDir(staging: StagingPaths, input: string): Promise<string> {
  const resolved = await staging.resolveInsideStaging(input, 'Source path');
  let isDir = false;
  try {
    isDir = (await fs.promises.stat(resolved)).isDirectory();
  } catch {
    // Missing or unreadable: reported as "not a directory" below.
  }
  if (!isDir) throw new BadRequestError('Source path is not a directory');
  return resolved;
}

/** The remote directory: the request's, else the server's own, else /tmp/sync. */
export function effectiveTargetPath(requested: string | null | undefined, serverDefault: string | null | undefined): string {
  const req = requested?.trim();
  if (req) return req;
  const own = serverDefault?.trim();
  return own || '/tmp/sync';
}
