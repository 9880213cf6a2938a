/**
 * POST /api/sync/upload-zip: the upload goes to a scratch file beside the staging directories
 * (never held in memory) and is extracted by the ZIP adapter (src/adapters/zip) into a hidden
 * work directory, renamed to a fresh `<prefix><12 hex>` only once the archive is confirmed whole:
 * a staging directory is never half-extracted, even if the process is killed meanwhile (the
 * leftovers are swept at the next start). On any failure the work directory and the scratch file
 * are removed before the error is raised; a full staging disk (ENOSPC/EDQUOT) is a 507, so the
 * space a failed upload took is free again at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NameEncodingChoice, UploadStream } from '../../adapters/zip/index.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, DomainError, errCode, isStorageFull, localIoError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import { originFile, writeOrigin } from './staging-origin.js';
import type { StagingPaths } from './staging-paths.js';
import type { UploadZipResponse } from './staging.schemas.js';

export const ZIP_LIST_LIMIT = 500;
/** An archive of a million empty files would exhaust inodes, not bytes: at most this many entries. */
export const ZIP_MAX_ENTRIES = 100_000;

/** One uploaded file part, without HTTP types: what the multipart layer hands over. */
export interface IncomingFile {
  fieldname: string;
  filename: string;
  /** Busboy's file stream: it ends early with `truncated` set, after a 'limit' event, past the size cap. */
  stream: UploadStream;
}

/** Reads the `zip_name_encoding` setting. */
export interface ZipUploadSettings {
  get(key: string): string | null;
}

/**
 * The setting's value as the extractor's choice: `gbk` reads with GB18030 (a superset of GBK);
 * a missing or unknown value (the setting is validated on write) is `auto`.
 */
export function nameEncodingChoice(value: string | null): NameEncodingChoice {
  switch (value?.trim()) {
    case 'gbk':
      return 'gb18030';
    case 'cp437':
      return 'cp437';
    case 'utf-8':
      return 'utf-8';
    default:
      return 'auto';
  }
}

export interface ZipUploadLimits {
  maxBytes: number;
  maxUncompressed: number;
  concurrency?: number;
}

/** Browsers may send a full client-side path; only the last component is the file's name. */
function clientFileName(raw: string): string {
  return path.posix.basename(raw.replace(/\\/g, '/')).trim();
}

export class ZipUploadService {
  constructor(
    private readonly paths: StagingPaths,
    private readonly audit: AuditService,
    private readonly log: Logger,
    private readonly settings: ZipUploadSettings,
    private readonly limits: ZipUploadLimits,
  ) {}

  /**
   * `nextFile` reads the multipart body up to the first file part. It is a callback so that a
   * malformed body surfaces here, where it becomes a 400 instead of an unexplained 500.
   */
  async upload(actor: Actor, nextFile: () => Promise<IncomingFile | undefined>): Promise<UploadZipResponse> {
    let file: IncomingFile | undefined;
    try {
      file = await nextFile();
    } catch (err) {
      throw asUploadError(err);
    }
    if (file?.fieldname !== 'file') {
      file?.stream.resume();
      throw new BadRequestError('No file given (expected a multipart field named "file")', 'file_required');
    }
    const filename = clientFileName(file.filename ?? '');
    if (!filename || !/\.zip$/i.test(filename)) {
      file.stream.resume();
      throw new BadRequestError('The file name must end in .zip', 'zip_name_invalid');
    }

    const archive = this.paths.scratchFile('.zip.part');
    let work: string | null = null;
    let dest: string | null = null;
    try {
      // The ZIP reader is loaded by the first upload, not at start: most processes never take one.
      const { extractUpload } = await import('../../adapters/zip/index.js');
      work = await this.paths.createWorkDir();
      const result = await extractUpload(file.stream, work, {
        archivePath: archive,
        maxBytes: this.limits.maxBytes,
        maxUncompressed: this.limits.maxUncompressed,
        maxEntries: ZIP_MAX_ENTRIES,
        listLimit: ZIP_LIST_LIMIT,
        concurrency: this.limits.concurrency,
        names: nameEncodingChoice(this.settings.get('zip_name_encoding')),
        readError: asUploadError,
        log: this.log,
      });
      await fs.promises.rm(archive, { force: true });
      dest = await this.paths.publishWorkDir(work);
      work = null;
      await writeOrigin(dest, { filename, size: result.size, uploaded_at: new Date().toISOString(), file_count: result.fileCount });
      await this.audit.record(actor, 'upload_zip', {
        type: 'local_path',
        id: dest,
        detail: `${filename}: ${result.size} bytes, ${result.fileCount} files, names read as ${result.nameEncoding}`,
      });
      return {
        success: true,
        source_path: dest,
        file_count: result.fileCount,
        files: result.files,
        files_truncated: result.fileCount > result.files.length,
        filename,
        size: result.size,
        name_encoding: result.nameEncoding,
      };
    } catch (err) {
      file.stream.resume(); // whatever of the body is left is read and dropped, not left hanging
      await this.cleanup([work, dest, dest && originFile(dest), archive]);
      if (err instanceof DomainError) throw err;
      if (isStorageFull(err)) this.log.warn({ err: errCode(err) }, 'zip upload: the staging disk is full');
      else this.log.error({ err }, 'zip upload failed');
      throw localIoError(err, 'Archive extraction failed', 'zip_extract_failed');
    }
  }

  private async cleanup(targets: Array<string | null>): Promise<void> {
    for (const target of targets) {
      if (!target) continue;
      try {
        await fs.promises.rm(target, { recursive: true, force: true });
      } catch (err) {
        this.log.warn({ path: target, err: errCode(err) }, 'could not clean up after a failed zip upload');
      }
    }
  }
}

/** Errors from reading the request body are the client's fault: a 400 with a short reason. */
function asUploadError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const e = err as { code?: string; message?: string } | null;
  if (e?.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new BadRequestError('The request is not multipart/form-data', 'not_multipart');
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return new BadRequestError('The file exceeds the size limit', 'upload_too_large');
  return new BadRequestError(`Malformed multipart upload: ${String(e?.message ?? 'unreadable body').slice(0, 120)}`, 'multipart_invalid');
}
