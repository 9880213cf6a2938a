/**
 * The streaming extractor and its confirmation against the central directory, driven directly:
 * archives are pushed in chunks of several sizes (so headers split across chunks), and whatever
 * streaming cannot vouch for must come back as "not confirmed" with nothing written outside dest.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamingZipExtractor } from '../../../src/adapters/zip/extract-streaming.js';
import { confirmStreamed } from '../../../src/adapters/zip/confirm-streamed.js';
import { buildZip, hasZipCli, zipDir } from '../../modules/staging/staging-helpers.js';

const LIMITS = { maxUncompressed: 64 * 1024 * 1024, maxEntries: 1000, names: 'auto' as const };

let work: string;
let dest: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-stream-test-'));
  dest = path.join(work, 'dest');
  fs.mkdirSync(dest);
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** Pushes `zip` in `chunk`-byte pieces, then confirms it against the same bytes stored on disk. */
async function stream(zip: Buffer, chunk: number, limits = LIMITS) {
  const archive = path.join(work, 'a.zip');
  fs.writeFileSync(archive, zip);
  const extractor = new StreamingZipExtractor(dest, limits);
  for (let i = 0; i < zip.length; i += chunk) await extractor.push(zip.subarray(i, i + chunk));
  const streamed = await extractor.finish();
  const confirmed = streamed && (await confirmStreamed(archive, dest, streamed, { maxEntries: limits.maxEntries, listLimit: 500, names: limits.names }));
  return { streamed, confirmed, reason: extractor.reason };
}

describe('streaming ZIP extraction', () => {
  it.skipIf(!hasZipCli())('extracts a zip CLI archive in any chunking, with contents, exec bits and mtimes', async () => {
    const src = path.join(work, 'src');
    fs.mkdirSync(path.join(src, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(src, 'empty'));
    const big = crypto.randomBytes(300_000);
    const text = Buffer.from('line of text\n'.repeat(40_000));
    fs.writeFileSync(path.join(src, 'big.bin'), big);
    fs.writeFileSync(path.join(src, 'text.txt'), text);
    fs.writeFileSync(path.join(src, 'bin/run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(src, 'zero'), '');
    const when = new Date('2024-05-06T07:08:10Z');
    fs.utimesSync(path.join(src, 'text.txt'), when, when);
    const zip = zipDir(src, path.join(work, 'src.zip'));

    for (const chunk of [7, 4096, 1 << 20]) {
      fs.rmSync(dest, { recursive: true, force: true });
      fs.mkdirSync(dest);
      const { confirmed, reason } = await stream(zip, chunk);
      expect(reason, `chunk ${chunk}`).toBeNull();
      expect(confirmed?.fileCount).toBe(4);
      expect([...confirmed!.files].sort()).toEqual(['big.bin', 'bin/run.sh', 'text.txt', 'zero']);
      expect(fs.readFileSync(path.join(dest, 'big.bin')).equals(big)).toBe(true);
      expect(fs.readFileSync(path.join(dest, 'text.txt')).equals(text)).toBe(true);
      expect(fs.statSync(path.join(dest, 'zero')).size).toBe(0);
      expect(fs.statSync(path.join(dest, 'empty')).isDirectory()).toBe(true);
      expect(fs.statSync(path.join(dest, 'bin/run.sh')).mode & 0o777).toBe(0o755);
      expect(fs.statSync(path.join(dest, 'big.bin')).mode & 0o777).toBe(0o644);
      expect(fs.statSync(path.join(dest, 'text.txt')).mtime.getTime()).toBe(when.getTime());
    }
  });

  it('applies the executable bit that only the central directory carries', async () => {
    const zip = buildZip([{ name: 'tool', data: 'x', unixMode: 0o100755 }, { name: 'plain', data: 'y' }]);
    const { confirmed } = await stream(zip, 3);
    expect(confirmed?.fileCount).toBe(2);
    expect(fs.statSync(path.join(dest, 'tool')).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dest, 'plain')).mode & 0o777).toBe(0o644);
  });

  it('is not confirmed when a local entry is missing from the central directory', async () => {
    const zip = buildZip([{ name: 'seen.txt', data: 'a' }, { name: 'hidden.txt', data: 'b', localOnly: true }]);
    const { streamed, confirmed } = await stream(zip, 5);
    expect(streamed?.entries.map((e) => e.name)).toEqual(['seen.txt', 'hidden.txt']);
    expect(confirmed).toBeNull();
  });

  it('is not confirmed when a local name differs from the central one', async () => {
    const zip = buildZip([{ name: 'good.txt', localName: 'other.txt', data: 'a' }]);
    expect((await stream(zip, 64)).confirmed).toBeNull();
  });

  it('is not confirmed for a symlink or a special file (streamed as a plain file)', async () => {
    for (const unixMode of [0o120777, 0o010644]) {
      fs.rmSync(dest, { recursive: true, force: true });
      fs.mkdirSync(dest);
      const zip = buildZip([{ name: 'f', data: 'x' }, { name: 'odd', data: '/etc/passwd', method: 0, unixMode }]);
      const { streamed, confirmed } = await stream(zip, 64);
      expect(streamed).not.toBeNull();
      expect(confirmed).toBeNull();
      expect(fs.lstatSync(path.join(dest, 'odd')).isSymbolicLink()).toBe(false);
    }
  });

  it('gives up on entries with data descriptors, leaving the rest to the classic extractor', async () => {
    const zip = buildZip([{ name: 'a.txt', data: 'hello', dataDescriptor: true }]);
    const { streamed, reason } = await stream(zip, 64);
    expect(streamed).toBeNull();
    expect(reason).toMatch(/data descriptor/);
  });

  it('never writes outside dest, whatever the local names say', async () => {
    for (const localName of ['../escape.txt', '/abs.txt', 'a\\..\\..\\b.txt', 'x/../../up.txt']) {
      const zip = buildZip([{ name: 'ok.txt', localName, data: 'evil' }]);
      const { streamed, reason } = await stream(zip, 10);
      expect(streamed, localName).toBeNull();
      expect(reason).toMatch(/unsafe|unreadable/);
    }
    expect(fs.readdirSync(work).sort()).toEqual(['a.zip', 'dest']);
    expect(fs.readdirSync(dest)).toEqual([]);
  });

  it('stops inflating at the output cap even when the headers lie', async () => {
    const bomb = Buffer.alloc(4 * 1024 * 1024);
    const zip = buildZip([{ name: 'bomb', data: bomb, declaredSize: 1000 }]);
    const { streamed, reason } = await stream(zip, 1024, { ...LIMITS, maxUncompressed: 1024 * 1024 });
    expect(streamed).toBeNull();
    expect(reason).toMatch(/larger than its header|exceeds/);
    const honest = buildZip([{ name: 'bomb', data: bomb }]);
    const second = await stream(honest, 1024, { ...LIMITS, maxUncompressed: 1024 * 1024 });
    expect(second.streamed).toBeNull();
    expect(second.reason).toMatch(/exceed/);
  });

  it('gives up on a truncated archive, a duplicate name and data before the first entry', async () => {
    const zip = buildZip([{ name: 'a.txt', data: 'a'.repeat(1000) }, { name: 'b.txt', data: 'b' }]);
    expect((await stream(zip.subarray(0, 60), 7)).streamed).toBeNull();
    const dup = buildZip([{ name: 'same', data: '1' }, { name: 'same', data: '2' }]);
    expect((await stream(dup, 64)).reason).toMatch(/duplicate/);
    expect((await stream(Buffer.concat([Buffer.from('MZ junk'), zip]), 64)).reason).toMatch(/no local file header/);
  });
});
