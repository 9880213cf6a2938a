/**
 * The staging directories themselves: every directory whose path starts with the staging prefix
 * (`/tmp/svc_upload_<hex>` for ZIP uploads), newest first, each with the ZIP it came from when
 * there was one. Symlinks are not listed: a push
 * source must be a real directory inside staging.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, errCode, InternalError } from '../../core/errors.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { StagingPaths } from './staging-paths.js';
import type { StagingBulkDeleteBody, StagingBulkDeleteResult, StagingDir, StagingDirList } from './staging-dirs.schemas.js';
import { readOrigin, removeOrigin } from './staging-origin.js';

/** More than this many staging directories are not listed (the newest are). */
export const MAX_STAGING_DIRS = 500;

const DAY_MS = 86_400_000;

interface Found extends StagingDir {
  /** The age the console shows: the ZIP's arrival, else the directory's mtime (ms). */
  at: number;
}

export class StagingDirsService {
  constructor(
    private readonly paths: StagingPaths,
    private readonly audit?: AuditService,
  ) {}

  /** The directory holding the staging directories, and the name stem each of them starts with. */
  private get layout(): { parent: string; start: string } {
    const prefix = this.paths.resolvedPrefix;
    return prefix.endsWith('/') ? { parent: prefix.slice(0, -1) || '/', start: '' } : { parent: path.dirname(prefix), start: path.basename(prefix) };
  }

  /**
   * One staging directory by its bare name, or null. Symlink-safe: the name must be a single
   * path component with the prefix's stem, the entry itself a real directory (lstat, so a
   * symlink named like one is not followed), and its resolved form inside staging.
   */
  private async one(name: string): Promise<Found | null> {
    const { parent, start } = this.layout;
    if (!name.startsWith(start) || name.includes('/') || name.includes('\0') || name === '.' || name === '..' || name === '') return null;
    const full = path.join(parent, name);
    const lst = await fs.promises.lstat(full).catch(() => null);
    if (!lst?.isDirectory()) return null;
    const real = await fs.promises.realpath(full).catch(() => null);
    if (real !== full || !this.paths.isInside(full)) return null;
    const [entries, zip] = await Promise.all([fs.promises.readdir(full).catch(() => null), readOrigin(full)]);
    if (!entries) return null;
    const uploaded = zip ? Date.parse(zip.uploaded_at) : Number.NaN;
    return { path: full, name, modified: lst.mtime.toISOString(), entries: entries.length, zip, at: Number.isNaN(uploaded) ? lst.mtimeMs : uploaded };
  }

  private async all(): Promise<Found[]> {
    const { parent, start } = this.layout;
    const dirents = await fs.promises.readdir(parent, { withFileTypes: true }).catch(() => []);
    const found = await Promise.all(dirents.filter((d) => d.isDirectory() && d.name.startsWith(start)).map((d) => this.one(d.name)));
    return found.filter((d) => d !== null).sort((a, b) => b.at - a.at);
  }

  async list(): Promise<StagingDirList> {
    const dirs = await this.all();
    return {
      items: dirs.slice(0, MAX_STAGING_DIRS).map(({ at: _at, ...d }) => d),
      truncated: dirs.length > MAX_STAGING_DIRS,
    };
  }

  /**
   * Removes whole staging directories, by name or by age (exactly one of the two). A name that is
   * not a staging directory (a symlink, a file, something outside) is reported as missing and left
   * alone; every removal is audited on its own, as `local_file_delete` is for a single one.
   */
  async bulkDelete(actor: Actor, body: StagingBulkDeleteBody): Promise<StagingBulkDeleteResult> {
    const byName = body.names !== undefined;
    const byAge = body.older_than_days !== undefined;
    if (byName === byAge) throw new BadRequestError('Give either names or older_than_days', 'staging_bulk_criteria');
    const missing: string[] = [];
    let chosen: Found[];
    if (byName) {
      const names = [...new Set(body.names)];
      if (names.length === 0) throw new BadRequestError('names must not be empty', 'staging_bulk_criteria');
      const found = await Promise.all(names.map((n) => this.one(n)));
      chosen = found.filter((d) => d !== null);
      missing.push(...names.filter((_, i) => found[i] === null));
    } else {
      const cutoff = Date.now() - (body.older_than_days ?? 0) * DAY_MS;
      chosen = (await this.all()).filter((d) => d.at < cutoff);
    }
    const deleted: string[] = [];
    for (const d of chosen) {
      try {
        // rm never follows symlinks inside the tree: nothing outside staging is reached.
        await fs.promises.rm(d.path, { recursive: true });
        await removeOrigin(d.path);
      } catch (err) {
        if (errCode(err) === 'ENOENT') {
          missing.push(d.name);
          continue;
        }
        throw new InternalError(`Could not delete ${d.name}: ${errCode(err) ?? 'I/O error'}`, 'io_error');
      }
      deleted.push(d.path);
      await this.audit?.record(actor, 'local_file_delete', { type: 'local_path', id: d.path, detail: byAge ? `directory (older than ${body.older_than_days} days)` : 'directory (bulk)' });
    }
    return { deleted, missing };
  }
}
