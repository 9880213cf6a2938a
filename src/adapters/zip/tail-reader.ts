/**
 * Opens a stored archive for yauzl with its central directory already in memory. yauzl reads
 * each central directory entry with two small positioned reads; through the thread pool that is
 * ~400 ms for 5,000 entries, right on the critical path after an upload ends. The streaming
 * extractor keeps the bytes from the central directory to the end of the upload (they arrive
 * last anyway), so those reads become copies; any other range still comes from the file.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import yauzl, { type ZipFile } from 'yauzl';

export interface ArchiveTail {
  /** Offset in the archive of the first byte of `bytes`. */
  offset: number;
  bytes: Buffer;
}

class TailReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly fd: number,
    private readonly tail: ArchiveTail,
  ) {
    super();
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const from = position - this.tail.offset;
    if (from >= 0 && from + length <= this.tail.bytes.length) {
      this.tail.bytes.copy(buffer, offset, from, from + length);
      queueMicrotask(() => callback(null));
      return;
    }
    fs.read(this.fd, buffer, offset, length, position, (err, bytesRead) => {
      if (err) callback(err);
      else callback(bytesRead < length ? new Error('unexpected EOF') : null);
    });
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return fs.createReadStream('', { fd: this.fd, start, end: end - 1, autoClose: false });
  }

  override close(callback: (err: Error | null) => void): void {
    fs.close(this.fd, (err) => callback(err ?? null));
  }
}

/** Like `yauzl.open` with the options of `openZip`; reads inside `tail` are served from memory. */
export async function openZipWithTail(archive: string, tail: ArchiveTail, options: yauzl.Options): Promise<ZipFile> {
  const fd = await new Promise<number>((resolve, reject) => fs.open(archive, 'r', (err, f) => (err ? reject(err) : resolve(f))));
  try {
    const size = (await fs.promises.stat(archive)).size;
    const reader = new TailReader(fd, tail);
    return await new Promise<ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(reader, size, options, (err, zip) => (err ? reject(err) : resolve(zip)));
    });
  } catch (err) {
    fs.close(fd, () => {});
    throw err;
  }
}
