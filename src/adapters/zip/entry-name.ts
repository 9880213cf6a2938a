/**
 * What an entry's name bytes mean. ZIP names carry no encoding of their own unless the archive
 * marks them: general-purpose flag bit 11 says "UTF-8", and Info-ZIP's Unicode Path extra field
 * (0x7075) carries a UTF-8 copy of the name together with the CRC-32 of the raw name it stands
 * for. Everything else is whatever the writer's system used: Info-ZIP on Linux writes the UTF-8
 * bytes without the flag, Chinese Windows tools (Explorer, WinRAR, 7-Zip) write GBK, old tools
 * CP437. Reading GBK or UTF-8 bytes as CP437 gives mojibake that is then pushed to servers under
 * the wrong name, so the unmarked names are decoded with one encoding per archive (an archive has
 * one origin), chosen from all of its names, or fixed by the operator.
 *
 * Both extraction paths (streamed from local headers, and from the central directory) name their
 * entries through `entryName` here, so they can never disagree on a name.
 */
import zlib from 'node:zlib';
import yauzl, { type Entry } from 'yauzl';
import { BadRequestError } from '../../core/errors.js';
import { invalidArchive } from './entry.js';

/** How the archive's unmarked names were decoded (marked names are always UTF-8). */
export type NameEncoding = 'utf-8' | 'gb18030' | 'cp437';
/** `auto` chooses per archive (see NameEncodingGuess); the others are fixed. */
export type NameEncodingChoice = 'auto' | NameEncoding;

/** A name as the archive stores it: the header's flags, raw name bytes and parsed extra fields. */
export interface RawName {
  flags: number;
  raw: Buffer;
  extraFields: ReadonlyArray<{ id: number; data: Buffer }>;
}

/** A central directory entry's name as stored (yauzl is opened with `decodeStrings: false`). */
export function rawName(entry: Entry): RawName {
  return { flags: entry.generalPurposeBitFlag, raw: entry.fileNameRaw, extraFields: entry.extraFields };
}

const UTF8_FLAG = 0x800;
const UNICODE_PATH = 0x7075;
/** Linux NAME_MAX: a path segment longer than this many bytes cannot be created. */
export const MAX_SEGMENT_BYTES = 255;

// Fatal: a byte sequence that is not valid in the encoding is a failed decode, never U+FFFD.
// ignoreBOM keeps a leading BOM as part of the name instead of silently dropping it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// GB18030 is a superset of GBK (and of GB2312): it reads every GBK name the same way.
const gb18030 = new TextDecoder('gb18030', { fatal: true, ignoreBOM: true });

function tryDecode(decoder: TextDecoder, bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** `raw` read as `encoding`, or null when the bytes are not valid in it (CP437 maps every byte). */
export function decodeAs(raw: Buffer, encoding: NameEncoding): string | null {
  if (encoding === 'utf-8') return tryDecode(utf8, raw);
  if (encoding === 'gb18030') return tryDecode(gb18030, raw);
  // yauzl's own CP437 table: with flags 0 and no extra fields its name reader is exactly that.
  return yauzl.getFileNameLowLevel(0, raw, [], true);
}

/**
 * The name when the archive marks it as UTF-8, else null. A Unicode Path field counts only in
 * version 1 and when its CRC-32 matches the raw name: a tool that renamed the entry without
 * updating the field leaves a stale copy, which must be ignored. A flagged name that is not valid
 * UTF-8 is a broken archive.
 */
export function markedName(n: RawName): string | null {
  for (const field of n.extraFields) {
    if (field.id !== UNICODE_PATH || field.data.length < 6 || field.data[0] !== 1) continue;
    if (field.data.readUInt32LE(1) !== zlib.crc32(n.raw)) continue;
    const name = tryDecode(utf8, field.data.subarray(5));
    if (name !== null) return name;
  }
  if (!(n.flags & UTF8_FLAG)) return null;
  const name = tryDecode(utf8, n.raw);
  if (name === null) throw undecodable('an entry marked as UTF-8 has a name that is not valid UTF-8');
  return name;
}

function undecodable(detail: string): BadRequestError {
  return new BadRequestError(`Invalid ZIP archive: ${detail}`, 'zip_name_undecodable');
}

/**
 * The `auto` choice, fed with every name of one archive: UTF-8 when every unmarked name is valid
 * UTF-8 (ASCII is; UTF-8 is checked first because multi-byte UTF-8 rarely fails as GB18030 while
 * GBK very often fails as UTF-8), else GB18030 when every one decodes cleanly as GB18030, else
 * CP437, which reads any bytes.
 */
export class NameEncodingGuess {
  private utf8 = true;
  private gb18030 = true;

  observe(n: RawName): void {
    if (markedName(n) !== null) return;
    if (this.utf8 && decodeAs(n.raw, 'utf-8') === null) this.utf8 = false;
    if (this.gb18030 && decodeAs(n.raw, 'gb18030') === null) this.gb18030 = false;
  }

  get encoding(): NameEncoding {
    if (this.utf8) return 'utf-8';
    return this.gb18030 ? 'gb18030' : 'cp437';
  }
}

/**
 * The one naming function: the marked UTF-8 name, else the raw name decoded with `encoding`;
 * then the rules every name obeys (nothing absolute, no `..`, no backslash, no path segment over
 * 255 bytes of UTF-8; `entryPath` adds NUL and containment). Throws a 400 for a name that breaks them.
 */
export function entryName(n: RawName, encoding: NameEncoding): string {
  const name = markedName(n) ?? decodeAs(n.raw, encoding);
  if (name === null) throw undecodable(`an entry name is not valid ${encoding === 'gb18030' ? 'GBK/GB18030' : 'UTF-8'}`);
  // yauzl's strict rules, applied here because yauzl is asked for raw names (it would judge the CP437 reading).
  const problem = yauzl.validateFileName(name);
  if (problem !== null) throw invalidArchive(problem);
  for (const segment of name.split('/')) {
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES) {
      throw new BadRequestError(
        `Invalid ZIP archive: a name segment is ${bytes} bytes of UTF-8, the limit is ${MAX_SEGMENT_BYTES}: ${segment.slice(0, 40)}…`,
        'zip_name_too_long',
      );
    }
  }
  return name;
}
