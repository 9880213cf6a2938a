/**
 * POST /api/sync/upload-zip: the upload is streamed to a scratch file beside the staging
 * directories (never held in memory) and, as it arrives, extracted into a fresh `<prefix><12 hex>`
 * directory by the streaming extractor. The result stands only once the central directory
 * confirms it; otherwise the stored archive is extracted the classic way. On any failure both the
 * directory and the scratch file are removed before the error is raised.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Actor } from '../../core/actor.js';
import { BadRequestError, DomainError, errCode, errorMessage, InternalError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { StagingPaths } from './staging-paths.js';
import { extractZip, type ExtractResult } from './zip-extractor.js';
import { StreamingZipExtractor } from './zip-stream-extractor.js';
import { confirmStreamed } from './zip-stream-verify.js';

export const ZIP_LIST_LIMIT = 500;
/** Beyond the spec: an archive of a million empty files would exhaust inodes, not bytes. */
export const ZIP_MAX_ENTRIES = 100_000;

/** One uploaded file part, without HTTP types: what the multipart layer hands over. */
export interface IncomingFile {
  fieldname: string;
  filename: string;
  /** Busboy's file stream: it ends early with `truncated` set, after a 'limit' event, past the size cap. */
  stream: Readable & { truncated?: boolean };
}

export interface ZipUploadLimits {
  maxBytes: number;
  maxUncompressed: number;
  concurrency?: number;
}

export interface ZipUploadResult {
  success: true;
  source_path: string;
  file_count: number;
  files: string[];
  files_truncated: boolean;
  filename: string;
  size: number;
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
    private readonly limits: ZipUploadLimits,
  ) {}

  /**
   * `nextFile` reads the multipart body up to the first file part. It is a callback so that a
   * malformed body surfaces here, where it becomes a 400 instead of an unexplained 500.
   */
  async upload(actor: Actor, nextFile: () => Promise<IncomingFile | undefined>): Promise<ZipUploadResult> {
    let file: IncomingFile | undefined;
    try {
      file = await nextFile();
    } catch (err) {
      throw asUploadError(err);
    }
    if (!file || file.fieldname !== 'file') {
      file?.stream.resume();
      throw new BadRequestError('No file given (expected a multipart field named "file")');
    }
    const filename = clientFileName(file.filename ?? '');
    if (!filename || !/\.zip$/i.test(filename)) {
      file.stream.resume();
      throw new BadRequestError('The file name must end in .zip');
    }

    const archive = this.paths.scratchFile('.zip.part');
    let dest: string | null = null;
    let streaming: StreamingZipExtractor | null = null;
    try {
      dest = await this.paths.createStagingDir();
      streaming = new StreamingZipExtractor(dest, { maxUncompressed: this.limits.maxUncompressed, maxEntries: ZIP_MAX_ENTRIES });
      const size = await this.receive(file.stream, archive, streaming);
      if (size === 0) throw new BadRequestError('The uploaded file is empty');
      const result = await this.extract(archive, dest, streaming);
      await fs.promises.rm(archive, { force: true });
      await this.audit.record(actor, 'upload_zip', {
        type: 'local_path',
        id: dest,
        detail: `${filename}: ${size} bytes, ${result.fileCount} files`,
      });
      return {
        success: true,
        source_path: dest,
        file_count: result.fileCount,
        files: result.files,
        files_truncated: result.fileCount > result.files.length,
        filename,
        size,
      };
    } catch (err) {
      // Nothing may still be writing into the directory when it is removed.
      streaming?.abandon('upload failed');
      await streaming?.finish();
      file.stream.resume(); // whatever of the body is left is read and dropped, not left hanging
      await this.cleanup(dest, archive);
      if (err instanceof DomainError) throw err;
      this.log.error({ err: errorMessage(err) }, 'zip upload failed');
      throw new InternalError('Archive extraction failed');
    }
  }

  /**
   * Uses the extraction done while receiving when the central directory confirms it; otherwise
   * starts over from the stored archive, which also produces the error for a hostile archive.
   */
  private async extract(archive: string, dest: string, streaming: StreamingZipExtractor): Promise<ExtractResult> {
    const streamed = await streaming.finish();
    const limits = { maxEntries: ZIP_MAX_ENTRIES, listLimit: ZIP_LIST_LIMIT };
    const confirmed = streamed && (await confirmStreamed(archive, dest, streamed, limits));
    if (confirmed) return confirmed;
    this.log.debug({ reason: streaming.reason ?? 'central directory disagrees' }, 'zip upload: extracting the stored archive');
    await fs.promises.rm(dest, { recursive: true, force: true });
    await fs.promises.mkdir(dest, { mode: 0o755 });
    return extractZip(archive, dest, {
      maxUncompressed: this.limits.maxUncompressed,
      concurrency: this.limits.concurrency,
      ...limits,
    });
  }

  /**
   * Streams the part to the scratch file and, at the same time, into the streaming extractor;
   * returns its size. A 400 once it passes the size cap.
   */
  private async receive(stream: IncomingFile['stream'], archive: string, streaming: StreamingZipExtractor): Promise<number> {
    let size = 0;
    let writeFailed: unknown = null;
    const out = fs.createWriteStream(archive, { flags: 'wx', mode: 0o600, highWaterMark: 1024 * 1024 });
    out.on('error', (err) => {
      writeFailed ??= err;
    });
    const storeError = () => new InternalError(`Could not store the upload: ${errCode(writeFailed) ?? 'I/O error'}`);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        out.write(chunk);
        await streaming.push(chunk);
        if (writeFailed !== null) break;
        // Checked after the push: 'drain' may already have fired while the extractor had us wait.
        if (out.writableNeedDrain) await once(out, 'drain');
      }
    } catch (err) {
      out.destroy();
      if (writeFailed !== null) throw storeError();
      throw asUploadError(err);
    }
    if (writeFailed !== null) {
      out.destroy();
      throw storeError();
    }
    out.end();
    try {
      await finished(out);
    } catch {
      throw storeError();
    }
    // Busboy stops delivering at the cap and ends the part with `truncated`; nothing past it was written.
    if (stream.truncated) {
      throw new BadRequestError(`The file exceeds the ${this.limits.maxBytes}-byte limit`);
    }
    return size;
  }

  private async cleanup(dest: string | null, archive: string): Promise<void> {
    for (const target of [dest, archive]) {
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
  if (e?.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new BadRequestError('The request is not multipart/form-data');
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return new BadRequestError('The file exceeds the size limit');
  return new BadRequestError(`Malformed multipart upload: ${String(e?.message ?? 'unreadable body').slice(0, 120)}`);
}
