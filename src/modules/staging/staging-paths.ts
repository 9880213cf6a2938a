/**
 * The staging prefix rule: a path is inside staging when its fully resolved
 * form — symlinks and `..` resolved — starts with the staging prefix. Every module that touches a
 * local path (staging, push, file-diff, verify) goes through `StagingPaths` so the rule lives in
 * one place. Callers must use the *resolved* path afterwards, never the input: the input may still
 * name a symlink that points elsewhere.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BadRequestError, errCode, ForbiddenPathError, throwIfTooLong } from '../../core/errors.js';

/** Linux gives up after 40 symlinks in one resolution; so do we. */
const MAX_SYMLINKS = 40;

/** Refuses what no filesystem call could take (NUL bytes), as a 400 instead of a crash. */
export function assertUsablePath(p: string, field = 'path'): void {
  if (p.includes('\0')) throw new BadRequestError(`${field} contains a NUL byte`, 'path_invalid');
}

/**
 * Like Python's non-strict `os.path.realpath`: resolves every symlink and `..` in the parts that
 * exist and keeps the missing tail as written (normalised). Needed because a missing path must
 * still be judged (a delete of a missing file is a 404 only once it is known to be inside).
 */
export async function resolvePath(input: string): Promise<string> {
  assertUsablePath(input);
  const abs = path.resolve(input);
  try {
    return await fs.promises.realpath(abs);
  } catch (err) {
    const code = errCode(err);
    if (code === 'ELOOP') throw new BadRequestError('Too many levels of symbolic links', 'symlink_loop');
    throwIfTooLong(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES') throw err;
  }
  return resolveComponentwise(abs);
}

/**
 * Walks component by component. A missing component is kept literally, but resolution goes on
 * after it: `missing/../link` must still follow `link`, or a caller acting on the result could
 * be sent through a symlink that was never checked.
 */
async function resolveComponentwise(abs: string): Promise<string> {
  const pending = abs.split('/').filter(Boolean);
  let resolved = '/';
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const next = path.join(resolved, part);
    let isLink = false;
    try {
      isLink = (await fs.promises.lstat(next)).isSymbolicLink();
    } catch (err) {
      // A missing component does not stop the walk, so the joined path can outgrow PATH_MAX here
      // even when realpath failed earlier on ENOENT: still the caller's input, still a 400.
      throwIfTooLong(err);
      const code = errCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES') throw err;
    }
    if (!isLink) {
      resolved = next;
      continue;
    }
    if (++links > MAX_SYMLINKS) throw new BadRequestError('Too many levels of symbolic links', 'symlink_loop');
    const target = await fs.promises.readlink(next);
    if (target.startsWith('/')) resolved = '/';
    pending.unshift(...target.split('/').filter(Boolean));
  }
  return resolved;
}

/** The prefix as the filesystem sees it (e.g. macOS' /tmp -> /private/tmp), so resolved paths compare. */
function resolvePrefix(prefix: string): string {
  const abs = path.resolve(prefix);
  const keepSlash = prefix.endsWith('/') ? '/' : '';
  const dir = keepSlash ? abs : path.dirname(abs);
  const tail = keepSlash ? '' : path.basename(abs);
  let realDir = dir;
  try {
    realDir = fs.realpathSync(dir);
  } catch {
    // The parent may not exist yet; the literal form is then the only sensible reading.
  }
  const joined = tail ? path.join(realDir, tail) : realDir;
  return keepSlash && !joined.endsWith('/') ? `${joined}/` : joined;
}

export class StagingPaths {
  /** The configured prefix, e.g. `/tmp/svc_upload_`. */
  readonly prefix: string;
  /** The prefix with its parent directory resolved; resolved paths are compared against this. */
  readonly resolvedPrefix: string;

  constructor(prefix: string) {
    if (!prefix) throw new Error('STAGING_PREFIX must not be empty');
    this.prefix = prefix;
    this.resolvedPrefix = resolvePrefix(prefix);
  }

  /** Resolves symlinks and `..` (non-strict: a missing tail is kept). */
  resolve(input: string): Promise<string> {
    return resolvePath(input);
  }

  /**
   * Whether an already resolved path is inside staging. An extraction still in progress (a work
   * directory, see createWorkDir) is not staging yet, even where its name matches the prefix (a
   * prefix that is a whole directory, `/srv/staging/`).
   */
  isInside(resolved: string): boolean {
    if (!resolved.startsWith(this.resolvedPrefix)) return false;
    const first = resolved.slice(this.resolvedPrefix.length).split('/')[0];
    return !(this.resolvedPrefix.endsWith('/') && isWorkName(first));
  }

  /**
   * Resolves `input` and returns the resolved path when it is inside staging; otherwise throws
   * ForbiddenPathError (403). Use the returned path for every later filesystem call.
   */
  async resolveInsideStaging(input: string, what = 'Path'): Promise<string> {
    const resolved = await resolvePath(input);
    if (!this.isInside(resolved)) throw new ForbiddenPathError(`${what} is outside the staging area`, 'path_outside_staging');
    return resolved;
  }

  /**
   * A local directory a push or a verify reads: 400 unless `input` resolves to an existing
   * directory (checked first), then 403 unless that directory is in staging.
   */
  async resolveStagingDir(input: string, what = 'Source path'): Promise<string> {
    const resolved = await resolvePath(input);
    const st = await fs.promises.stat(resolved).catch(() => null);
    if (!st?.isDirectory()) throw new BadRequestError(`${what} is not a directory`, 'not_a_directory');
    if (!this.isInside(resolved)) throw new ForbiddenPathError(`${what} is outside the staging area`, 'path_outside_staging');
    return resolved;
  }

  /** Creates a fresh `<prefix><12 hex>` directory (mode 0755) and returns its path. */
  async createStagingDir(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const dir = `${this.resolvedPrefix}${crypto.randomBytes(6).toString('hex')}`;
      try {
        await fs.promises.mkdir(dir, { mode: 0o755 });
        return dir;
      } catch (err) {
        if (errCode(err) !== 'EEXIST' || attempt >= 5) throw err;
      }
    }
  }

  /**
   * A scratch file name beside the staging directories that does not itself match the prefix
   * (hidden, different stem), so listings of staging never show half-written uploads.
   */
  scratchFile(suffix: string): string {
    const { dir, stem } = this.scratchPlace();
    return path.join(dir, `.${stem}${crypto.randomBytes(6).toString('hex')}.${process.pid}${suffix}`);
  }

  /**
   * A fresh empty directory an upload is extracted into before it becomes a staging directory
   * (hidden, beside the staging directories, so the final rename is atomic: a staging directory
   * is either absent or complete, even if the process is killed mid-extraction). Its name carries
   * this process's pid, so a later start can tell an abandoned one from one still being written.
   */
  async createWorkDir(): Promise<string> {
    const dir = this.scratchFile(WORK_SUFFIX);
    await fs.promises.mkdir(dir, { mode: 0o700 });
    return dir;
  }

  /**
   * Moves a finished work directory into place under a fresh `<prefix><12 hex>` name (one
   * rename, atomic) and returns that name.
   */
  async publishWorkDir(work: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const dir = `${this.resolvedPrefix}${crypto.randomBytes(6).toString('hex')}`;
      // rename() would replace an empty directory of that name: only a name nobody uses is taken.
      if (!(await fs.promises.lstat(dir).catch(() => null))) {
        await fs.promises.rename(work, dir);
        await fs.promises.chmod(dir, 0o755);
        return dir;
      }
      if (attempt >= 5) throw new Error('no free staging directory name');
    }
  }

  /**
   * Removes what killed processes left beside the staging directories: work directories and
   * scratch files (a ZIP being received) whose process is gone. Those of live processes (other
   * workers, still extracting) stay. Answers the paths removed.
   */
  async sweepAbandoned(): Promise<string[]> {
    const { dir, stem } = this.scratchPlace();
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const removed: string[] = [];
    for (const name of names) {
      const m = SCRATCH_NAME.exec(name);
      if (!m || !name.startsWith(`.${stem}`) || processAlive(Number(m[1]))) continue;
      const full = path.join(dir, name);
      await fs.promises.rm(full, { recursive: true, force: true });
      removed.push(full);
    }
    return removed;
  }

  private scratchPlace(): { dir: string; stem: string } {
    const slash = this.resolvedPrefix.endsWith('/');
    return { dir: slash ? this.resolvedPrefix : path.dirname(this.resolvedPrefix), stem: slash ? 'upload' : path.basename(this.resolvedPrefix) };
  }
}

const WORK_SUFFIX = '.extracting';
/** `.<stem><12 hex>.<pid><suffix>`: a scratch file or work directory, and the pid that made it. */
const SCRATCH_NAME = /^\..*[0-9a-f]{12}\.(\d+)(\.extracting|\.zip\.part)$/;
const isWorkName = (name: string) => name.startsWith('.') && name.endsWith(WORK_SUFFIX);

/**
 * Whether a pid is a live process here (EPERM: alive, someone else's). A process killed while its
 * parent has not reaped it yet is a zombie: it still answers signal 0 but runs nothing, so its
 * leftovers are swept (seen in CI: a SIGKILLed service's work directory kept after the restart).
 */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return errCode(err) === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (err) {
    // Gone since the signal; anywhere without /proc it counts as alive (nothing is removed).
    return errCode(err) !== 'ENOENT';
  }
}
