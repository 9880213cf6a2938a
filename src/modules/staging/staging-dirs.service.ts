/**
 * The staging directories themselves: every directory whose path starts with the staging prefix
 * (`/tmp/svc_upload_<hex>` for ZIP uploads), newest first, each with the ZIP it came from when
 * there was one. Symlinks are not listed: a push
 * source must be a real directory inside staging.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StagingPaths } from './staging-paths.js';
import type { StagingDirList } from './staging-dirs.schemas.js';
import { readOrigin } from './staging-origin.js';

/** More than this many staging directories are not listed (the newest are). */
export const MAX_STAGING_DIRS = 500;

export class StagingDirsService {
  constructor(private readonly paths: StagingPaths) {}

  async list(): Promise<StagingDirList> {
    const prefix = this.paths.resolvedPrefix;
    const parent = prefix.endsWith('/') ? prefix.slice(0, -1) || '/' : path.dirname(prefix);
    const start = prefix.endsWith('/') ? '' : path.basename(prefix);
    const dirents = await fs.promises.readdir(parent, { withFileTypes: true }).catch(() => []);
    const found = await Promise.all(
      dirents
        .filter((d) => d.isDirectory() && d.name.startsWith(start))
        .map(async (d) => {
          const full = path.join(parent, d.name);
          const [st, entries, zip] = await Promise.all([fs.promises.stat(full).catch(() => null), fs.promises.readdir(full).catch(() => null), readOrigin(full)]);
          if (!st || !entries || !this.paths.isInside(full)) return null;
          return { path: full, name: d.name, modified: st.mtime.toISOString(), entries: entries.length, zip, at: st.mtimeMs };
        }),
    );
    const dirs = found.filter((d) => d !== null).sort((a, b) => b.at - a.at);
    return {
      items: dirs.slice(0, MAX_STAGING_DIRS).map(({ at: _at, ...d }) => d),
      truncated: dirs.length > MAX_STAGING_DIRS,
    };
  }
}
