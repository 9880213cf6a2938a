/**
 * Reading ZIP entry names: the naming rules on their own, then whole archives through both
 * extraction paths (streamed from local headers, and from the stored archive), which must land
 * every file under the same name.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryName, markedName, NameEncodingGuess, type RawName } from '../../../src/adapters/zip/entry-name.js';
import { extractZip } from '../../../src/adapters/zip/extract-stored.js';
import { extractUpload, type NameEncodingChoice } from '../../../src/adapters/zip/index.js';
import { buildZip, hasZipCli, unicodePathField, zipDir } from '../../modules/staging/staging-helpers.js';

/** GBK bytes of the names used here (what Chinese Windows tools write), spelled out byte by byte. */
const GBK = {
  '文件 名称.txt': Buffer.from('cec4bcfe20c3fbb3c62e747874', 'hex'),
  '中文目录/': Buffer.from('d6d0cec4c4bfc2bc2f', 'hex'),
  '中文目录/数据.txt': Buffer.from('d6d0cec4c4bfc2bc2fcafdbedd2e747874', 'hex'),
  // 0x5C, a backslash in ASCII, as the second byte of a GBK character.
  '乗.txt': Buffer.from('815c2e747874', 'hex'),
};
const unmarked = (raw: Buffer, extra: RawName['extraFields'] = []): RawName => ({ flags: 0, raw, extraFields: extra });
const u8 = (s: string) => Buffer.from(s, 'utf8');
/** The extra field as parsed: id and data (what yauzl hands over). */
const parsed = (field: Buffer) => [{ id: field.readUInt16LE(0), data: field.subarray(4) }];

describe('entry names', () => {
  it('reads unmarked names with the given encoding; CP437 is what mojibake looked like', () => {
    expect(entryName(unmarked(u8('文件 名称.txt')), 'utf-8')).toBe('文件 名称.txt');
    expect(entryName(unmarked(u8('文件 名称.txt')), 'cp437')).toBe('µûçΣ╗╢ σÉìτº░.txt');
    expect(entryName(unmarked(GBK['文件 名称.txt']), 'gb18030')).toBe('文件 名称.txt');
    expect(entryName(unmarked(GBK['乗.txt']), 'gb18030')).toBe('乗.txt');
  });

  it('takes flagged names as UTF-8 whatever the encoding, and refuses a flagged name that is not UTF-8', () => {
    expect(entryName({ flags: 0x800, raw: u8('数据.txt'), extraFields: [] }, 'cp437')).toBe('数据.txt');
    expect(() => entryName({ flags: 0x800, raw: GBK['文件 名称.txt'], extraFields: [] }, 'gb18030')).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'zip_name_undecodable' }),
    );
  });

  it('honours a Unicode Path field only when its CRC matches the raw name', () => {
    const raw = Buffer.from('3f3f2e747874', 'hex'); // "??.txt": what a tool without the right code page wrote
    const good = parsed(unicodePathField('名称.txt', raw));
    expect(markedName(unmarked(raw, good))).toBe('名称.txt');
    expect(entryName(unmarked(raw, good), 'cp437')).toBe('名称.txt');
    const stale = parsed(unicodePathField('名称.txt', raw, zlib.crc32(raw) ^ 1));
    expect(markedName(unmarked(raw, stale))).toBeNull();
    expect(entryName(unmarked(raw, stale), 'utf-8')).toBe('??.txt');
  });

  it('refuses a fixed encoding the bytes are not valid in', () => {
    expect(() => entryName(unmarked(GBK['文件 名称.txt']), 'utf-8')).toThrow(expect.objectContaining({ code: 'zip_name_undecodable' }));
    expect(() => entryName(unmarked(Buffer.from([0x61, 0xff])), 'gb18030')).toThrow(expect.objectContaining({ code: 'zip_name_undecodable' }));
  });

  it('limits a path segment to 255 bytes of UTF-8, not characters', () => {
    expect(entryName(unmarked(u8(`dir/${'中'.repeat(60)}`)), 'utf-8')).toBe(`dir/${'中'.repeat(60)}`);
    expect(entryName(unmarked(u8('中'.repeat(85))), 'utf-8')).toHaveLength(85); // 255 bytes
    expect(() => entryName(unmarked(u8(`${'中'.repeat(85)}a/x`)), 'utf-8')).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'zip_name_too_long' }),
    );
    // 120 GBK bytes, 180 bytes once in UTF-8: the limit applies to what is created.
    expect(entryName(unmarked(Buffer.from('d6d0'.repeat(60), 'hex')), 'gb18030')).toBe('中'.repeat(60));
  });

  it('still refuses unsafe names once decoded', () => {
    for (const bad of ['../x', '/etc/x', 'a\\b', 'C:/x']) {
      expect(() => entryName(unmarked(u8(bad)), 'utf-8'), bad).toThrow(expect.objectContaining({ statusCode: 400 }));
    }
    // In CP437 the GBK trail byte 0x5C is a backslash; read as GBK it is part of a character.
    expect(() => entryName(unmarked(GBK['乗.txt']), 'cp437')).toThrow(/invalid characters/);
  });

  it('guesses one encoding per archive from its unmarked names', () => {
    const guess = (...names: RawName[]) => {
      const g = new NameEncodingGuess();
      for (const n of names) g.observe(n);
      return g.encoding;
    };
    expect(guess()).toBe('utf-8');
    expect(guess(unmarked(u8('a.txt')), unmarked(u8('文件.txt')))).toBe('utf-8');
    expect(guess(unmarked(u8('文件')), unmarked(GBK['文件 名称.txt']))).toBe('gb18030');
    expect(guess(unmarked(GBK['中文目录/']), unmarked(Buffer.from([0xff])))).toBe('cp437');
    // Marked names do not take part: a flagged UTF-8 name beside GBK ones leaves the choice at GB18030.
    expect(guess({ flags: 0x800, raw: u8('数据'), extraFields: [] }, unmarked(GBK['中文目录/']))).toBe('gb18030');
  });
});

describe('archives through both extraction paths', () => {
  let work: string;
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-names-'));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  /** Every file under `dir`, relative, sorted. */
  const tree = (dir: string) =>
    (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();

  /** Extracts `zip` streamed (in 5-byte chunks) and from the stored archive; both must agree. */
  async function both(zip: Buffer, names: NameEncodingChoice = 'auto') {
    const streamedDir = path.join(work, `s${Math.random()}`);
    fs.mkdirSync(streamedDir);
    const chunks = Array.from({ length: Math.ceil(zip.length / 5) }, (_, i) => zip.subarray(i * 5, i * 5 + 5));
    const streamed = await extractUpload(Readable.from(chunks), streamedDir, {
      archivePath: path.join(work, `a${Math.random()}.zip`),
      maxBytes: 1 << 20, maxUncompressed: 1 << 20, maxEntries: 100, listLimit: 100, names,
      readError: (err) => err as Error,
      log: { debug() {} },
    });
    const storedDir = path.join(work, `r${Math.random()}`);
    fs.mkdirSync(storedDir);
    const archive = path.join(work, `b${Math.random()}.zip`);
    fs.writeFileSync(archive, zip);
    const stored = await extractZip(archive, storedDir, { maxUncompressed: 1 << 20, maxEntries: 100, listLimit: 100, names });
    expect(tree(streamedDir)).toEqual(tree(storedDir));
    expect([streamed.nameEncoding, [...streamed.files].sort()]).toEqual([stored.nameEncoding, [...stored.files].sort()]);
    return { encoding: stored.nameEncoding, files: tree(storedDir), dir: storedDir };
  }

  it.skipIf(!hasZipCli())('reads an Info-ZIP archive (UTF-8 bytes, no flag) as UTF-8, or as CP437 when told to', async () => {
    const src = path.join(work, 'src');
    fs.mkdirSync(path.join(src, '中文目录/子目录'), { recursive: true });
    fs.writeFileSync(path.join(src, '文件 名称.txt'), 'hello\n');
    fs.writeFileSync(path.join(src, '中文目录/子目录/数据.txt'), 'data\n');
    const zip = zipDir(src, path.join(work, 'info-zip.zip'));
    expect(zip.includes(u8('文件 名称.txt'))).toBe(true); // raw UTF-8 bytes...
    expect(zip.readUInt16LE(6) & 0x800).toBe(0); // ...without the UTF-8 flag

    const auto = await both(zip);
    expect(auto).toMatchObject({ encoding: 'utf-8', files: ['中文目录/子目录/数据.txt', '文件 名称.txt'] });
    expect(fs.readFileSync(path.join(auto.dir, '文件 名称.txt'), 'utf8')).toBe('hello\n');
    const forced = await both(zip, 'cp437');
    expect(forced).toMatchObject({ encoding: 'cp437', files: ['µûçΣ╗╢ σÉìτº░.txt', 'Σ╕¡µûçτ¢«σ╜ò/σ¡Éτ¢«σ╜ò/µò░µì«.txt'] });
  });

  it("reads Python zipfile's archive (UTF-8 flag) as UTF-8", async () => {
    const out = path.join(work, 'py.zip');
    const script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n" +
      "  z.writestr('文件 名称.txt', 'py\\n')\n  z.writestr('中文目录/数据.txt', 'd\\n')\n";
    execFileSync('python3', ['-c', script, out]);
    const zip = fs.readFileSync(out);
    expect(zip.readUInt16LE(6) & 0x800).toBe(0x800);
    expect(await both(zip, 'cp437')).toMatchObject({ encoding: 'cp437', files: ['中文目录/数据.txt', '文件 名称.txt'] });
    expect(await both(zip)).toMatchObject({ encoding: 'utf-8', files: ['中文目录/数据.txt', '文件 名称.txt'] });
  });

  it('reads a GBK archive (Chinese Windows) as GB18030, also when its first name is valid UTF-8 too', async () => {
    const entries = Object.entries(GBK).map(([name, rawName]) => ({ name, rawName, utf8Flag: false, data: `${name}\n` }));
    const gbk = await both(buildZip(entries));
    expect(gbk).toMatchObject({ encoding: 'gb18030', files: ['中文目录/数据.txt', '乗.txt', '文件 名称.txt'] });
    expect(fs.readFileSync(path.join(gbk.dir, '中文目录/数据.txt'), 'utf8')).toBe('中文目录/数据.txt\n');

    // The bytes of "文件" in UTF-8 are also valid GBK ("鏂囦欢"): streaming reads the first entry as UTF-8,
    // learns otherwise at the second, and the stored archive is extracted with the archive-wide choice.
    const tricky = buildZip([{ name: 'x', rawName: u8('文件'), utf8Flag: false, data: '1' }, ...entries]);
    expect(await both(tricky)).toMatchObject({ encoding: 'gb18030', files: ['中文目录/数据.txt', '乗.txt', '文件 名称.txt', '鏂囦欢'] });
  });

  it('takes a Unicode Path field with the right CRC and falls back on the raw name with a wrong one', async () => {
    const raw = GBK['文件 名称.txt'];
    const zip = (crc?: number) =>
      buildZip([{ name: 'f', rawName: raw, utf8Flag: false, extra: unicodePathField('统一 名称.txt', raw, crc), data: 'u' }]);
    expect(await both(zip())).toMatchObject({ encoding: 'utf-8', files: ['统一 名称.txt'] });
    expect(await both(zip(zlib.crc32(raw) ^ 0xff))).toMatchObject({ encoding: 'gb18030', files: ['文件 名称.txt'] });
  });

  it('refuses a segment past 255 bytes on both paths', async () => {
    const zip = buildZip([{ name: `${'中'.repeat(85)}a.txt`, data: 'x' }]);
    await expect(both(zip)).rejects.toMatchObject({ statusCode: 400, code: 'zip_name_too_long' });
  });
});
