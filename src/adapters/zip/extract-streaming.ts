/**
 * Extracts a ZIP archive from its local file headers while the upload is still arriving, so that
 * receiving and extracting overlap instead of running one after the other.
 *
 * A ZIP's authority is its central directory, which comes last; local headers can lie or hide
 * entries. So this is only a head start: nothing here is trusted until `confirmStreamed` has
 * matched every entry against the central directory. Anything this reader does not handle (data
 * descriptors, ZIP64 sizes, encryption, odd names, a prefix before the first entry) makes it
 * give up quietly; the caller then extracts the stored archive the classic way, which is also
 * where hostile archives get their error messages. Files are only ever created inside `dest`, as
 * regular files and directories, and output is capped while inflating, so giving up late costs
 * time, never safety.
 */
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { errCode } from '../../core/errors.js';
import { ByteChannel } from './byte-channel.js';
import { createEntryInflate, EntrySink, entryPath, feedConsumed } from './entry.js';
import { entryName, NameEncodingGuess, type NameEncoding, type NameEncodingChoice } from './entry-name.js';
import type { ArchiveTail } from './tail-reader.js';

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const LOCAL_FIXED = 30;
const LOCAL_MAX = LOCAL_FIXED + 0xffff + 0xffff;
/** Entries still being written while the stream moves on (overlaps file creation on the thread pool). */
const IN_FLIGHT = 8;
const CHANNEL_BYTES = 2 * 1024 * 1024;
/** 5,000 entries take ~500 KB of central directory; past this the verification reads the file. */
const TAIL_MAX = 16 * 1024 * 1024;

export interface StreamedEntry {
  /** Stream offset of the local header: must equal the central directory's offset. */
  offset: number;
  name: string;
  kind: 'file' | 'dir';
  rel: string;
  target: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  /** What the local header says the mtime is, in ms (already applied to files). */
  mtime: number;
}

export interface StreamedArchive {
  entries: StreamedEntry[];
  /** The central directory and everything after it, when it was small enough to keep. */
  tail: ArchiveTail | null;
  /** Bytes written to files. */
  written: number;
  /** Judged from all local headers; a name read under an earlier guess fails the confirmation. */
  nameEncoding: NameEncoding;
}

export interface StreamLimits {
  maxUncompressed: number;
  maxEntries: number;
  names: NameEncodingChoice;
}

type State = 'header' | 'data' | 'done' | 'abandoned';

export class StreamingZipExtractor {
  private state: State = 'header';
  /** Why streaming gave up, for the log. */
  reason: string | null = null;
  private readonly header = Buffer.allocUnsafe(LOCAL_MAX);
  private headerLen = 0;
  private headerNeed = LOCAL_FIXED;
  /** Stream offset of the first byte of the chunk being parsed. */
  private base = 0;
  private current: { remaining: number; channel: ByteChannel | null } | null = null;
  private readonly entries: StreamedEntry[] = [];
  private readonly names = new Set<string>();
  private readonly guess = new NameEncodingGuess();
  private readonly dirs = new Map<string, Promise<unknown>>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly channels = new Set<ByteChannel>();
  private declared = 0;
  private written = 0;
  private tailOffset = -1;
  private tailChunks: Buffer[] | null = null;
  private tailBytes = 0;

  constructor(
    private readonly dest: string,
    private readonly limits: StreamLimits,
  ) {}

  /**
   * Takes the next chunk of the archive. Chunks are kept, not copied, until written: the caller
   * must not modify them. Resolves when the extractor is ready for more (flow control).
   */
  async push(chunk: Buffer): Promise<void> {
    if (this.state === 'done') {
      this.keepTail(chunk);
      this.base += chunk.length;
      return;
    }
    let pos = 0;
    while (pos < chunk.length && (this.state === 'header' || this.state === 'data')) {
      if (this.state === 'header') {
        const take = Math.min(this.headerNeed - this.headerLen, chunk.length - pos);
        chunk.copy(this.header, this.headerLen, pos, pos + take);
        this.headerLen += take;
        pos += take;
        if (this.headerLen < this.headerNeed) continue;
        if (this.headerNeed === LOCAL_FIXED) {
          const sig = this.header.readUInt32LE(0);
          if (sig === CENTRAL_SIG || sig === END_SIG) {
            this.state = 'done';
            this.tailOffset = this.base + pos - LOCAL_FIXED;
            this.tailChunks = [];
            this.keepTail(Buffer.from(this.header.subarray(0, LOCAL_FIXED)));
            this.keepTail(chunk.subarray(pos));
            this.base += chunk.length;
            return;
          }
          if (sig !== LOCAL_SIG) {
            this.abandon('no local file header where one was expected');
            break;
          }
          this.headerNeed = LOCAL_FIXED + this.header.readUInt16LE(26) + this.header.readUInt16LE(28);
          if (this.headerLen < this.headerNeed) continue;
        }
        const offset = this.base + pos - this.headerLen;
        this.headerLen = 0;
        this.headerNeed = LOCAL_FIXED;
        await this.beginEntry(offset);
        continue;
      }
      const current = this.current!;
      const n = Math.min(current.remaining, chunk.length - pos);
      if (n > 0) await current.channel?.push(chunk.subarray(pos, pos + n));
      pos += n;
      current.remaining -= n;
      if (current.remaining === 0) this.endEntry();
    }
    this.base += chunk.length;
  }

  /**
   * Stops streaming: running entries stop at their next chunk, later chunks are ignored. Safe to
   * call at any time and more than once; whatever was written stays for the caller to remove.
   */
  abandon(reason: string): void {
    if (this.state === 'abandoned') return;
    this.state = 'abandoned';
    this.reason = reason;
    for (const channel of this.channels) channel.cancel();
  }

  /**
   * Call once the whole archive has been pushed (or after `abandon`). Resolves when nothing is
   * writing any more: with the streamed entries, or null when streaming gave up.
   */
  async finish(): Promise<StreamedArchive | null> {
    if (this.state === 'header' || this.state === 'data') this.abandon('the archive ended before its central directory');
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await Promise.allSettled([...this.dirs.values()]);
    if (this.state === 'abandoned') return null;
    const tail = this.tailChunks ? { offset: this.tailOffset, bytes: Buffer.concat(this.tailChunks) } : null;
    return { entries: this.entries, tail, written: this.written, nameEncoding: this.encoding };
  }

  private get encoding(): NameEncoding {
    return this.limits.names === 'auto' ? this.guess.encoding : this.limits.names;
  }

  private keepTail(chunk: Buffer): void {
    if (!this.tailChunks || chunk.length === 0) return;
    this.tailBytes += chunk.length;
    if (this.tailBytes > TAIL_MAX) this.tailChunks = null;
    else this.tailChunks.push(chunk);
  }

  private async beginEntry(offset: number): Promise<void> {
    const h = this.header;
    const flags = h.readUInt16LE(6);
    const method = h.readUInt16LE(8);
    const crc32 = h.readUInt32LE(14);
    const compressedSize = h.readUInt32LE(18);
    const uncompressedSize = h.readUInt32LE(22);
    const nameLen = h.readUInt16LE(26);
    const extraEnd = LOCAL_FIXED + nameLen + h.readUInt16LE(28);
    if (flags & 0x1) return this.abandon('encrypted entry');
    // Sizes follow the data: only the central directory knows where a stored entry ends.
    if (flags & 0x8) return this.abandon('entry with a data descriptor');
    if (method !== 0 && method !== 8) return this.abandon(`compression method ${method}`);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) return this.abandon('ZIP64 sizes');
    if (method === 0 && compressedSize !== uncompressedSize) return this.abandon('stored entry sizes differ');
    if (this.entries.length >= this.limits.maxEntries) return this.abandon('too many entries');

    let name: string;
    let extraFields: yauzl.Entry['extraFields'];
    let rel: string;
    let target: string;
    try {
      extraFields = yauzl.parseExtraFields(h.subarray(LOCAL_FIXED + nameLen, extraEnd));
      const raw = { flags, raw: h.subarray(LOCAL_FIXED, LOCAL_FIXED + nameLen), extraFields };
      this.guess.observe(raw);
      name = entryName(raw, this.encoding);
      ({ rel, target } = entryPath(name, this.dest));
    } catch {
      return this.abandon('unreadable or unsafe entry name');
    }
    if (this.names.has(rel)) return this.abandon('duplicate entry');
    this.names.add(rel);

    const kind = name.endsWith('/') ? 'dir' : 'file';
    // yauzl's own reading of the timestamps (extended fields first), so it matches the central directory.
    const stamp = Object.assign(new yauzl.Entry(), { lastModFileDate: h.readUInt16LE(12), lastModFileTime: h.readUInt16LE(10), extraFields });
    const entry: StreamedEntry = {
      offset, name, kind, rel, target, method, compressedSize, uncompressedSize, crc32,
      mtime: stamp.getLastModDate().getTime(),
    };
    this.entries.push(entry);
    this.state = 'data';

    if (kind === 'dir') {
      void this.ensureDir(target).catch((err: unknown) => this.abandon(`mkdir: ${errCode(err)}`));
      this.current = { remaining: compressedSize, channel: null };
    } else {
      this.declared += uncompressedSize;
      if (this.declared > this.limits.maxUncompressed) return this.abandon('declared sizes exceed the limit');
      while (this.inFlight.size >= IN_FLIGHT) await Promise.race(this.inFlight);
      if (this.state !== 'data') return undefined;
      const channel = new ByteChannel(CHANNEL_BYTES);
      this.channels.add(channel);
      const task: Promise<void> = this.writeFile(entry, channel)
        .catch((err: unknown) => this.abandon(`entry ${rel}: ${(err as Error).message}`))
        .finally(() => {
          this.inFlight.delete(task);
          this.channels.delete(channel);
        });
      this.inFlight.add(task);
      this.current = { remaining: compressedSize, channel };
    }
    if (compressedSize === 0) this.endEntry();
    return undefined;
  }

  private endEntry(): void {
    this.current?.channel?.close();
    this.current = null;
    if (this.state === 'data') this.state = 'header';
  }

  private ensureDir(dir: string): Promise<unknown> {
    let made = this.dirs.get(dir);
    if (!made) {
      made = fs.promises.mkdir(dir, { recursive: true, mode: 0o755 });
      this.dirs.set(dir, made);
    }
    return made;
  }

  private async writeFile(entry: StreamedEntry, channel: ByteChannel): Promise<void> {
    await this.ensureDir(path.dirname(entry.target));
    // 'wx': streaming never overwrites anything, not even its own earlier output.
    const out = await fs.promises.open(entry.target, 'wx', 0o644);
    try {
      const sink = new EntrySink(out, entry, entry.rel, this);
      if (entry.method === 8) {
        await inflateChannel(channel, sink, entry.uncompressedSize);
      } else {
        for await (const chunk of channel) await sink.write(chunk, false);
      }
      await sink.flush();
      sink.finish();
      const mtime = new Date(entry.mtime);
      await out.utimes(mtime, mtime);
    } finally {
      channel.cancel();
      await out.close();
    }
  }

  /** Called by each sink for every output chunk: the zip bomb cap on bytes actually produced. */
  account(bytes: number): void {
    this.written += bytes;
    if (this.written > this.limits.maxUncompressed) throw new Error('output exceeds the limit');
  }
}

/** Inflates the chunks of one entry into its sink; each input chunk is consumed before the next is fed. */
async function inflateChannel(channel: ByteChannel, sink: EntrySink, expectedSize: number): Promise<void> {
  const inflate = createEntryInflate(expectedSize);
  const feed = (chunk: Buffer) => feedConsumed(inflate, chunk);
  const feeder = (async () => {
    for await (const chunk of channel) await feed(chunk);
  })().then(
    () => void inflate.end(),
    (err: unknown) => void inflate.destroy(err as Error),
  );
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) await sink.write(chunk, false);
  } finally {
    // The feeder may be waiting for input that will never come once the output side failed.
    channel.cancel();
    inflate.destroy();
    await feeder;
  }
}
