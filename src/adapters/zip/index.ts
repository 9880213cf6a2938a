/**
 * Extracting an untrusted ZIP upload into a directory. See README.md in this folder for the two
 * paths (streamed while it arrives, or from the stored archive) and what is refused.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { BadRequestError, errCode, localIoError } from '../../core/errors.js';
import { streamCollector } from '../../core/stream-garbage.js';
import type { Logger } from '../../core/logger.js';
import { confirmStreamed } from './confirm-streamed.js';
import { extractZip, type ExtractResult } from './extract-stored.js';
import { StreamingZipExtractor } from './extract-streaming.js';
import type { NameEncodingChoice } from './entry-name.js';

export type { ExtractResult } from './extract-stored.js';
export type { NameEncoding, NameEncodingChoice } from './entry-name.js';

/** The incoming file: a stream that may end early with `truncated` set (a size cap was hit). */
export type UploadStream = Readable & { truncated?: boolean };

export interface UploadLimits {
  /** Where the archive itself is stored while it arrives (removed by the caller). */
  archivePath: string;
  /** The size cap the stream enforces (named in the 400 when it is hit). */
  maxBytes: number;
  /** Total bytes the entries may inflate to (zip-bomb guard). */
  maxUncompressed: number;
  maxEntries: number;
  /** File names listed in the result (the count is always complete). */
  listLimit: number;
  /** Files inflated at once on the stored-archive path. */
  concurrency?: number;
  /** How names the archive does not mark as UTF-8 are read: `auto` chooses per archive. */
  names: NameEncodingChoice;
  /** Turns an error of reading the incoming stream (a malformed upload) into the caller's error. */
  readError(err: unknown): Error;
  log: Pick<Logger, 'debug'>;
}

export interface UploadExtracted extends ExtractResult {
  /** Bytes received. */
  size: number;
}

/**
 * Receives `stream` into `limits.archivePath` and extracts it into `dest` (an existing, empty
 * directory) at the same time; keeps that extraction only when the archive's central directory
 * confirms it, else extracts again from the stored archive. Rejects with a 400 for an empty,
 * oversize, invalid or hostile archive; on any failure the caller removes `dest` and the archive.
 */
export async function extractUpload(stream: UploadStream, dest: string, limits: UploadLimits): Promise<UploadExtracted> {
  const streaming = new StreamingZipExtractor(dest, {
    maxUncompressed: limits.maxUncompressed,
    maxEntries: limits.maxEntries,
    names: limits.names,
  });
  try {
    const size = await receive(stream, limits, streaming);
    if (size === 0) throw new BadRequestError('The uploaded file is empty', 'file_empty');
    const result = await extractReceived(dest, limits, streaming);
    return { ...result, size };
  } catch (err) {
    // Nothing may still be writing into the directory when the caller removes it.
    streaming.abandon('upload failed');
    await streaming.finish();
    throw err;
  }
}

/**
 * Destroys the archive file's stream and waits until its descriptor is closed: the file is opened
 * asynchronously, so without the wait it could appear after the caller removed the directory.
 */
async function destroyed(out: fs.WriteStream): Promise<void> {
  if (out.closed) return;
  const closed = once(out, 'close').catch(() => {});
  out.destroy();
  await closed;
}

/** Streams the upload to the archive file and the streaming extractor at once; returns its size. */
async function receive(stream: UploadStream, limits: UploadLimits, streaming: StreamingZipExtractor): Promise<number> {
  let size = 0;
  let writeFailed: unknown = null;
  const out = fs.createWriteStream(limits.archivePath, { flags: 'wx', mode: 0o600, highWaterMark: 1024 * 1024 });
  out.on('error', (err) => {
    writeFailed ??= err;
  });
  const storeError = () => localIoError(writeFailed, `Could not store the upload: ${errCode(writeFailed) ?? 'I/O error'}`);
  const collect = streamCollector();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      collect(chunk.length);
      out.write(chunk);
      await streaming.push(chunk);
      if (writeFailed !== null) break;
      // Checked after the push: 'drain' may already have fired while the extractor had us wait.
      if (out.writableNeedDrain) await once(out, 'drain');
    }
  } catch (err) {
    await destroyed(out);
    if (writeFailed !== null) throw storeError();
    throw limits.readError(err);
  }
  if (writeFailed !== null) {
    await destroyed(out);
    throw storeError();
  }
  out.end();
  try {
    await finished(out);
  } catch {
    throw storeError();
  }
  // A capped stream stops at the cap and ends with `truncated`; nothing past it was written.
  if (stream.truncated) throw new BadRequestError(`The file exceeds the ${limits.maxBytes}-byte limit`, 'upload_too_large');
  return size;
}

/**
 * The fast path's result when the central directory confirms it; otherwise the reference path,
 * from the stored archive, which also produces the error for a hostile archive.
 */
async function extractReceived(dest: string, limits: UploadLimits, streaming: StreamingZipExtractor): Promise<ExtractResult> {
  const streamed = await streaming.finish();
  const lists = { maxEntries: limits.maxEntries, listLimit: limits.listLimit, names: limits.names };
  const confirmed = streamed && (await confirmStreamed(limits.archivePath, dest, streamed, lists));
  if (confirmed) return confirmed;
  limits.log.debug({ reason: streaming.reason ?? 'central directory disagrees' }, 'zip upload: extracting the stored archive');
  await fs.promises.rm(dest, { recursive: true, force: true });
  await fs.promises.mkdir(dest, { mode: 0o755 });
  return extractZip(limits.archivePath, dest, { maxUncompressed: limits.maxUncompressed, concurrency: limits.concurrency, ...lists });
}
