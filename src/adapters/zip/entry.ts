/**
 * One ZIP entry: what it may become on disk (plan) and the checks on its bytes (EntrySink).
 * Anything that is not a plain file or directory inside the destination is refused with a 400.
 */
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Entry } from 'yauzl';
import { BadRequestError } from '../../core/errors.js';
import { isSameOrUnder } from '../../core/paths.js';

const WRITE_BATCH = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

export function invalidArchive(reason: string): BadRequestError {
  return new BadRequestError(`Invalid ZIP archive: ${reason.slice(0, 200)}`, 'zip_invalid');
}

export interface Planned {
  kind: 'dir' | 'file';
  rel: string;
  target: string;
  mode: number;
}

/**
 * Where an entry named `name` lands under `dest`. `entryName` already refuses absolute names, `..`
 * segments and backslashes; this is the backstop that the path stays inside `dest`.
 */
export function entryPath(name: string, dest: string): { rel: string; target: string } {
  if (name.includes('\0')) throw invalidArchive('an entry name contains a NUL byte');
  if (name.includes('\\') || name.startsWith('/')) throw invalidArchive(`unsafe entry path: ${name}`);
  const rel = name.replace(/\/+$/, '');
  const parts = rel.split('/');
  if (!rel || parts.some((p) => p === '..')) throw invalidArchive(`unsafe entry path: ${name}`);
  const target = path.resolve(dest, rel);
  if (target === dest || !isSameOrUnder(target, dest)) throw invalidArchive(`unsafe entry path: ${name}`);
  return { rel, target };
}

/**
 * Checks one entry, whose decoded name is `name` (from `entryName`), and decides what it becomes;
 * throws a 400 for anything not a plain file or directory.
 */
export function plan(entry: Entry, name: string, dest: string): Planned {
  const { rel, target } = entryPath(name, dest);

  const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const type = unixMode & S_IFMT;
  if (type === S_IFLNK) throw invalidArchive(`symbolic link entries are not allowed: ${name}`);
  const isDir = name.endsWith('/') || type === S_IFDIR;
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    throw invalidArchive(`special file entries are not allowed: ${name}`);
  }
  if (isDir) return { kind: 'dir', rel, target, mode: 0o755 };
  if (entry.isEncrypted()) throw invalidArchive(`encrypted entries are not supported: ${name}`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw invalidArchive(`unsupported compression method ${entry.compressionMethod}: ${name}`);
  }
  // Keep an owner-executable bit (scripts), nothing else from the archive: no setuid, no 0777.
  return { kind: 'file', rel, target, mode: unixMode & 0o100 ? 0o755 : 0o644 };
}

/** What an entry's output is checked against: from the central directory or a local header. */
export interface Expected {
  uncompressedSize: number;
  crc32: number;
}

/** Size and CRC checks for one entry, and batched writes of its output. */
export class EntrySink {
  private size = 0;
  private crc = 0;
  private batch: Buffer[] = [];
  private batchLen = 0;

  constructor(
    private readonly out: FileHandle,
    private readonly entry: Expected,
    private readonly rel: string,
    private readonly owner: { account(bytes: number): void },
  ) {}

  /** `reused`: the chunk's memory is recycled after this call, so it is written at once, never kept. */
  async write(chunk: Buffer, reused: boolean): Promise<void> {
    this.size += chunk.length;
    if (this.size > this.entry.uncompressedSize) throw invalidArchive(`entry is larger than its header says: ${this.rel}`);
    this.owner.account(chunk.length);
    this.crc = zlib.crc32(chunk, this.crc);
    if (reused) {
      await this.flush();
      await writeAll(this.out, chunk);
      return;
    }
    this.batch.push(chunk);
    this.batchLen += chunk.length;
    if (this.batchLen >= WRITE_BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batchLen === 0) return;
    const chunks = this.batch;
    this.batch = [];
    this.batchLen = 0;
    await this.out.writev(chunks);
  }

  finish(): void {
    if (this.size !== this.entry.uncompressedSize) throw invalidArchive(`entry is shorter than its header says: ${this.rel}`);
    if (this.crc >>> 0 !== this.entry.crc32 >>> 0) throw invalidArchive(`CRC-32 mismatch: ${this.rel}`);
  }
}

const INFLATE_CHUNK_MAX = 256 * 1024;
const INFLATE_CHUNK_MIN = 4 * 1024;

/**
 * An inflate stream whose output buffer fits the entry: a 256 KiB buffer for each of thousands
 * of small entries was most of the extractor's allocation (and GC) on a 5,000-file archive.
 * `expectedSize` is only a hint; output beyond it still works (and the sink refuses it).
 */
export function createEntryInflate(expectedSize: number): zlib.InflateRaw {
  return zlib.createInflateRaw({ chunkSize: Math.min(INFLATE_CHUNK_MAX, Math.max(INFLATE_CHUNK_MIN, expectedSize)) });
}

/** Writes one chunk into inflate; resolves once inflate has consumed it (so its memory may be reused). */
export function feedConsumed(inflate: zlib.InflateRaw, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onClose = () => reject(new Error('inflate stream closed'));
    inflate.once('close', onClose);
    inflate.write(chunk, (err) => {
      inflate.off('close', onClose);
      if (err) reject(err);
      else resolve();
    });
  });
}

async function writeAll(out: FileHandle, chunk: Buffer): Promise<void> {
  let off = 0;
  while (off < chunk.length) {
    const { bytesWritten } = await out.write(chunk, off, chunk.length - off);
    off += bytesWritten;
  }
}
