/**
 * The local staging area: browse, delete/rename, preview and source validation. Every
 * path goes through StagingPaths first, and every later filesystem call uses the resolved path.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, errCode, ForbiddenPathError, localIoError, NotFoundError } from '../../core/errors.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { walkFiles, type WalkResult } from './source-walk.js';
import type { StatWorker } from '../../adapters/fs/stat-worker.js';
import { removeOrigin } from './staging-origin.js';
import { resolvePath, type StagingPaths } from './staging-paths.js';
import { isSameOrUnder } from '../../core/paths.js';
import type { BrowseLocalResponse, FileOpBody, FileOpResponse, LocalEntry, PreviewResponse, ValidateSourceResponse } from './staging.schemas.js';

export const PREVIEW_READ_BYTES = 4096;
export const PREVIEW_MAX_BYTES = 1_048_576;
export const SOURCE_SCAN_LIMIT = 10_000;
export const FORBIDDEN_SOURCE_ROOTS = ['/etc', '/root', '/home', '/var', '/boot', '/dev', '/proc', '/sys', '/run', '/srv'];

const isPermission = (err: unknown) => errCode(err) === 'EACCES' || errCode(err) === 'EPERM';

/** `ls`-like order: directories first, then names without regard to case (ties: exact name). */
function compareEntries(a: LocalEntry, b: LocalEntry): number {
  if (a.is_dir !== b.is_dir) return a.is_dir ? -1 : 1;
  const la = a.name.toLowerCase();
  const lb = b.name.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Strict UTF-8 check; a multi-byte character cut by the 4096-byte window does not make it binary. */
function looksLikeUtf8(bytes: Buffer, cutShort: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cutShort });
    return true;
  } catch {
    return false;
  }
}

export class StagingService {
  constructor(
    private readonly paths: StagingPaths,
    private readonly audit: AuditService,
    /** Sizes half of a large source directory on a second core; without it the walk is single-threaded. */
    private readonly statWorker?: StatWorker,
  ) {}

  async browseLocal(actor: Actor, input: string): Promise<BrowseLocalResponse> {
    const trimmed = input.length > 1 ? input.replace(/\/+$/, '') || '/' : input;
    const dir = await this.paths.resolveInsideStaging(trimmed);
    let dirents: fs.Dirent[];
    try {
      dirents = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (errCode(err) === 'ENOENT' || errCode(err) === 'ENOTDIR') throw new NotFoundError('Directory not found', 'path_not_found');
      if (isPermission(err)) throw new ForbiddenPathError('Permission denied', 'permission_denied');
      throw localIoError(err, 'Could not read the directory');
    }
    const stats = await Promise.all(
      dirents.map((d) => fs.promises.stat(path.join(dir, d.name)).catch(() => null)),
    );
    const entries: LocalEntry[] = [];
    dirents.forEach((d, i) => {
      const st = stats[i];
      if (!st) return; // unreadable or dangling: skipped, the rest still listed
      const isDir = st.isDirectory();
      entries.push({ name: d.name, is_dir: isDir, size: isDir ? 0 : st.size });
    });
    entries.sort(compareEntries);
    await this.audit.record(actor, 'browse_local', { type: 'local_path', id: dir, detail: `${entries.length} entries` });
    return { path: dir, entries };
  }

  async fileOp(actor: Actor, input: FileOpBody): Promise<FileOpResponse> {
    const target = await this.paths.resolveInsideStaging(input.path);
    if (input.operation === 'delete') return this.delete(actor, target);
    if (input.operation === 'rename') return this.rename(actor, target, input.new_name);
    if (input.operation === 'mkdir') return this.mkdir(actor, target);
    throw new BadRequestError(`Invalid operation: ${String(input.operation).slice(0, 40)} (expected delete, rename or mkdir)`, 'operation_invalid');
  }

  /**
   * Creates the one directory `path` names (its parent must exist: no parents are made, so a typo
   * in a parent is a 404 rather than a new tree). The path was resolved first, so a symlinked
   * parent pointing outside staging was already refused with 403.
   */
  private async mkdir(actor: Actor, target: string) {
    try {
      await fs.promises.mkdir(target, { mode: 0o755 });
    } catch (err) {
      const code = errCode(err);
      if (code === 'EEXIST') throw new BadRequestError('An entry with that name already exists', 'path_exists');
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new NotFoundError('The parent directory does not exist', 'path_not_found');
      if (isPermission(err)) throw new ForbiddenPathError('Permission denied', 'permission_denied');
      throw localIoError(err, `Could not create the directory: ${code ?? 'I/O error'}`);
    }
    await this.audit.record(actor, 'local_file_mkdir', { type: 'local_path', id: target, detail: 'directory' });
    return { success: true, operation: 'mkdir' as const, path: target };
  }

  private async delete(actor: Actor, target: string) {
    const st = await fs.promises.lstat(target).catch(() => null);
    if (!st) throw new NotFoundError('Path not found', 'path_not_found');
    try {
      // rm never follows symlinks inside a tree, so nothing outside staging can be reached from here.
      await fs.promises.rm(target, { recursive: st.isDirectory(), force: false });
      if (st.isDirectory()) await removeOrigin(target);
    } catch (err) {
      if (errCode(err) === 'ENOENT') throw new NotFoundError('Path not found', 'path_not_found');
      throw localIoError(err, `Could not delete: ${errCode(err) ?? 'I/O error'}`);
    }
    await this.audit.record(actor, 'local_file_delete', { type: 'local_path', id: target, detail: st.isDirectory() ? 'directory' : 'file' });
    return { success: true, operation: 'delete' as const, path: target };
  }

  private async rename(actor: Actor, source: string, rawName: string | null | undefined) {
    if (rawName === undefined || rawName === null) throw new BadRequestError('new_name is required for rename', 'new_name_required');
    const name = rawName.replace(/[/\\]/g, '_').trim();
    if (name === '' || name === '.' || name === '..') throw new BadRequestError('Invalid new name', 'name_invalid');
    if (name.includes('\0')) throw new BadRequestError('new_name contains a NUL byte', 'name_invalid');
    const srcStat = await fs.promises.lstat(source).catch(() => null);
    if (!srcStat) throw new NotFoundError('Path not found', 'path_not_found');
    const wanted = path.join(path.dirname(source), name);
    const resolvedTarget = await resolvePath(wanted);
    if (!this.paths.isInside(resolvedTarget)) throw new ForbiddenPathError('The new name is outside the staging area', 'path_outside_staging');
    if (await fs.promises.lstat(wanted).then(() => true, () => false)) {
      throw new BadRequestError('An entry with the new name already exists', 'path_exists');
    }
    try {
      await fs.promises.rename(source, wanted);
    } catch (err) {
      if (errCode(err) === 'ENOENT') throw new NotFoundError('Path not found', 'path_not_found');
      throw localIoError(err, `Could not rename: ${errCode(err) ?? 'I/O error'}`);
    }
    await this.audit.record(actor, 'local_file_rename', { type: 'local_path', id: source, detail: `renamed to ${name}` });
    return { success: true, operation: 'rename' as const, path: source, new_name: name, new_path: wanted };
  }

  async preview(actor: Actor, input: string): Promise<PreviewResponse> {
    const file = await this.paths.resolveInsideStaging(input);
    // stat before open: opening a FIFO for reading would block until a writer appears.
    const st = await fs.promises.stat(file).catch(() => null);
    if (!st?.isFile()) throw new NotFoundError('Not a regular file', 'not_a_file');
    if (st.size > PREVIEW_MAX_BYTES) {
      throw new BadRequestError(`File is too large to preview (${st.size} > ${PREVIEW_MAX_BYTES} bytes)`, 'preview_too_large');
    }
    let bytes: Buffer;
    try {
      const fh = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try {
        const buf = Buffer.alloc(PREVIEW_READ_BYTES);
        const { bytesRead } = await fh.read(buf, 0, PREVIEW_READ_BYTES, 0);
        bytes = buf.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    } catch (err) {
      if (errCode(err) === 'ENOENT') throw new NotFoundError('Not a regular file', 'not_a_file');
      throw localIoError(err, `Could not read the file: ${errCode(err) ?? 'I/O error'}`);
    }
    const truncated = st.size > PREVIEW_READ_BYTES;
    await this.audit.record(actor, 'local_file_preview', { type: 'local_path', id: file, detail: `${st.size} bytes` });
    return {
      name: path.basename(file),
      size: st.size,
      content_base64: bytes.toString('base64'),
      truncated,
      encoding_hint: looksLikeUtf8(bytes, truncated) ? ('text' as const) : ('binary' as const),
    };
  }

  async validateSourcePath(actor: Actor, input: string): Promise<ValidateSourceResponse> {
    const raw = input.trim();
    if (!raw) throw new BadRequestError('path is required', 'path_required');
    if (raw.split('/').includes('..')) throw new BadRequestError('Path must not contain ".." components', 'path_invalid');
    const resolved = await resolvePath(raw);
    const forbidden = FORBIDDEN_SOURCE_ROOTS.find((root) => isSameOrUnder(resolved, root));
    if (forbidden) throw new ForbiddenPathError(`Source path must not be under ${forbidden}`, 'protected_path');
    const st = await fs.promises.stat(resolved).catch((err) => {
      if (isPermission(err)) throw new ForbiddenPathError('Permission denied', 'permission_denied');
      return null;
    });
    if (!st) throw new NotFoundError('Path does not exist', 'path_not_found');
    if (!st.isDirectory()) throw new BadRequestError('Path is not a directory', 'not_a_directory');
    let walk: WalkResult;
    try {
      walk = await walkFiles(resolved, SOURCE_SCAN_LIMIT, this.statWorker);
    } catch (err) {
      if (isPermission(err)) throw new ForbiddenPathError('Permission denied', 'permission_denied');
      throw localIoError(err, `Could not scan the directory: ${errCode(err) ?? 'I/O error'}`);
    }
    await this.audit.record(actor, 'validate_source_path', {
      type: 'local_path',
      id: resolved,
      detail: `${walk.fileCount}${walk.truncated ? '+' : ''} files, ${walk.sizeBytes} bytes`,
    });
    return {
      valid: true,
      is_dir: true,
      path: resolved,
      file_count: walk.fileCount,
      size_bytes: walk.sizeBytes,
      file_count_truncated: walk.fileCount >= SOURCE_SCAN_LIMIT,
    };
  }
}
