/**
 * Decides whether a streamed extraction can stand: the central directory, read by yauzl with the
 * same strict checks as a classic extraction, must list exactly the entries that were streamed,
 * in the same order, at the same offsets, with the same names, methods, sizes and CRC-32s, and
 * every one must pass `plan` (no symlinks, no special files, no unsafe paths). Then the details
 * only the central directory carries are applied: the executable bit and the mtime where the
 * local header's differed. Any disagreement means "extract the stored archive instead".
 */
import fs from 'node:fs';
import type { Entry, ZipFile } from 'yauzl';
import type { ExtractResult } from './extract-stored.js';
import { openZip, readNextEntry, ZIP_OPTIONS } from './extract-stored.js';
import { plan } from './entry.js';
import { entryName, NameEncodingGuess, rawName, type NameEncodingChoice } from './entry-name.js';
import type { StreamedArchive, StreamedEntry } from './extract-streaming.js';
import { openZipWithTail } from './tail-reader.js';

export interface ConfirmLimits {
  maxEntries: number;
  listLimit: number;
  names: NameEncodingChoice;
}

/** Metadata fix-ups applied at once; they are cheap syscalls, the thread pool has four threads. */
const FIXUP_BATCH = 16;

function sameEntry(entry: Entry, name: string, s: StreamedEntry): boolean {
  return (
    entry.relativeOffsetOfLocalHeader === s.offset &&
    name === s.name &&
    entry.compressionMethod === s.method &&
    entry.compressedSize === s.compressedSize &&
    entry.uncompressedSize === s.uncompressedSize &&
    entry.crc32 >>> 0 === s.crc32 >>> 0 &&
    !entry.isEncrypted()
  );
}

/**
 * Returns the extraction result when `streamed` matches the archive's central directory, or null
 * when it does not (or the directory cannot be read): the caller must then discard `dest`'s
 * content and extract the archive the classic way.
 */
export async function confirmStreamed(
  archive: string,
  dest: string,
  streamed: StreamedArchive,
  limits: ConfirmLimits,
): Promise<ExtractResult | null> {
  let zip: ZipFile;
  try {
    zip = streamed.tail ? await openZipWithTail(archive, streamed.tail, ZIP_OPTIONS) : await openZip(archive);
  } catch {
    return null;
  }
  zip.on('error', () => {});
  try {
    if (zip.entryCount !== streamed.entries.length || zip.entryCount > limits.maxEntries) return null;
    // Names are read with the streamed choice; under `auto` the central directory's own choice,
    // known after its last name, must be the same, or some name may have been read wrongly.
    const guess = new NameEncodingGuess();
    const fixups: Array<() => Promise<void>> = [];
    const files: string[] = [];
    let fileCount = 0;
    for (const s of streamed.entries) {
      let entry: Entry | null;
      let kind: string;
      let mode: number;
      try {
        entry = await readNextEntry(zip);
        if (!entry) return null;
        guess.observe(rawName(entry));
        const name = entryName(rawName(entry), streamed.nameEncoding);
        if (!sameEntry(entry, name, s)) return null;
        ({ kind, mode } = plan(entry, name, dest));
      } catch {
        return null;
      }
      if (kind !== s.kind) return null;
      if (kind !== 'file') continue;
      fileCount++;
      if (files.length < limits.listLimit) files.push(s.rel);
      if (mode !== 0o644) fixups.push(() => fs.promises.chmod(s.target, mode));
      const mtime = entry.getLastModDate();
      if (mtime.getTime() !== s.mtime) fixups.push(() => fs.promises.utimes(s.target, mtime, mtime));
    }
    if (fileCount === 0) return null;
    if (limits.names === 'auto' && guess.encoding !== streamed.nameEncoding) return null;
    for (let i = 0; i < fixups.length; i += FIXUP_BATCH) {
      await Promise.all(fixups.slice(i, i + FIXUP_BATCH).map((fix) => fix()));
    }
    return { fileCount, files, uncompressedBytes: streamed.written, nameEncoding: streamed.nameEncoding };
  } finally {
    zip.close();
  }
}
