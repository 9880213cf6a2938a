/**
 * POST /api/sync/upload-zip with entry names in other encodings: archives written by Info-ZIP
 * `zip` and Python's zipfile, byte-exact GBK archives, the Unicode Path field, the
 * `zip_name_encoding` setting and the 255-byte segment limit. The answer names the encoding, the
 * listing and the staged files carry the decoded names, and browsing the directory agrees.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { buildZip, hasZipCli, multipart, prefixLeftovers, removePrefixLeftovers, uniquePrefix, unicodePathField, zipDir } from './staging-helpers.js';

/** GBK bytes, as Chinese Windows tools store them: 文件 名称.txt, 中文目录/, 中文目录/数据.txt. */
const GBK_FILE = Buffer.from('cec4bcfe20c3fbb3c62e747874', 'hex');
const GBK_DIR = Buffer.from('d6d0cec4c4bfc2bc2f', 'hex');
const GBK_NESTED = Buffer.from('d6d0cec4c4bfc2bc2fcafdbedd2e747874', 'hex');
const gbkZip = () =>
  buildZip([
    { name: 'f', rawName: GBK_FILE, utf8Flag: false, data: 'gbk file\n' },
    { name: 'd/', rawName: GBK_DIR, utf8Flag: false },
    { name: 'n', rawName: GBK_NESTED, utf8Flag: false, data: 'nested\n' },
  ]);

describe.each(dbKinds())('upload-zip entry names on %s', (db) => {
  let t: TestApp;
  let prefix: string;
  let work: string;

  beforeAll(async () => {
    prefix = uniquePrefix();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-zip-names-'));
    t = await makeTestApp({ db, env: { STAGING_PREFIX: prefix } });
  });
  afterAll(async () => {
    await t?.close();
    removePrefixLeftovers(prefix);
    fs.rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    removePrefixLeftovers(prefix);
    await setEncoding('auto');
  });

  const upload = async (filename: string, content: Buffer) => {
    const body = multipart(filename, content);
    return t.app.inject({ method: 'POST', url: '/api/sync/upload-zip', payload: body.payload, headers: { ...body.headers, ...(await t.auth()) } });
  };
  const setEncoding = async (value: string) =>
    t.app.inject({ method: 'PUT', url: '/api/settings/zip_name_encoding', payload: { value }, headers: await t.auth() });
  /** What browsing the staged directory lists: the names an operator sees before pushing. */
  const browse = async (dir: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sync/browse-local', payload: { path: dir }, headers: await t.auth() });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().entries as Array<{ name: string }>).map((e) => e.name).sort();
  };

  it.skipIf(!hasZipCli())('reads an Info-ZIP archive (UTF-8 bytes, no flag) with its Chinese names, nested ones too', async () => {
    const src = path.join(work, 'info-zip');
    fs.mkdirSync(path.join(src, '中文目录/子目录'), { recursive: true });
    fs.writeFileSync(path.join(src, '文件 名称.txt'), 'hello\n');
    fs.writeFileSync(path.join(src, '中文目录/子目录/数据.txt'), 'data\n');
    const res = await upload('中文.zip', zipDir(src, path.join(work, 'info-zip.zip')));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ file_count: 2, name_encoding: 'utf-8', filename: '中文.zip' });
    expect([...body.files].sort()).toEqual(['中文目录/子目录/数据.txt', '文件 名称.txt']);
    expect(fs.readFileSync(path.join(body.source_path, '文件 名称.txt'), 'utf8')).toBe('hello\n');
    expect(await browse(body.source_path)).toEqual(['中文目录', '文件 名称.txt']);
    expect(await browse(path.join(body.source_path, '中文目录/子目录'))).toEqual(['数据.txt']);

    const audit = await t.app.inject({ url: '/api/audit?action=upload_zip', headers: await t.auth() });
    expect(audit.json().items[0].detail).toMatch(/names read as utf-8$/);
  });

  it("reads Python zipfile's archive (UTF-8 flag) as UTF-8", async () => {
    const out = path.join(work, 'py.zip');
    const script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n" +
      "  z.writestr('文件 名称.txt', 'py\\n')\n  z.writestr('中文目录/子目录/数据.txt', 'd\\n')\n";
    execFileSync('python3', ['-c', script, out]);
    const res = await upload('py.zip', fs.readFileSync(out));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name_encoding: 'utf-8', files: ['文件 名称.txt', '中文目录/子目录/数据.txt'] });
  });

  it('reads a GBK archive without any flag as GB18030', async () => {
    const res = await upload('gbk.zip', gbkZip());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ name_encoding: 'gb18030', files: ['文件 名称.txt', '中文目录/数据.txt'] });
    expect(fs.readFileSync(path.join(body.source_path, '中文目录/数据.txt'), 'utf8')).toBe('nested\n');
    expect(await browse(body.source_path)).toEqual(['中文目录', '文件 名称.txt']);
  });

  it('takes the Unicode Path field when its CRC matches, the raw name when it does not', async () => {
    const withField = (crc?: number) =>
      buildZip([{ name: 'f', rawName: GBK_FILE, utf8Flag: false, extra: unicodePathField('统一 名称.txt', GBK_FILE, crc), data: 'u' }]);
    const good = await upload('good.zip', withField());
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ files: ['统一 名称.txt'], name_encoding: 'utf-8' });
    const stale = await upload('stale.zip', withField(zlib.crc32(GBK_FILE) ^ 1));
    expect(stale.statusCode, stale.body).toBe(200);
    expect(stale.json()).toMatchObject({ files: ['文件 名称.txt'], name_encoding: 'gb18030' });
  });

  it('follows the zip_name_encoding setting, validated like the other enum settings', async () => {
    expect((await t.app.inject({ url: '/api/settings/zip_name_encoding', headers: await t.auth() })).json()).toMatchObject({ value: 'auto' });
    const bad = await setEncoding('latin1');
    expect(bad.statusCode).toBe(400);

    expect((await setEncoding('cp437')).statusCode).toBe(200);
    const cp437 = await upload('gbk.zip', gbkZip());
    expect(cp437.statusCode, cp437.body).toBe(200);
    expect(cp437.json()).toMatchObject({ name_encoding: 'cp437', files: ['╬─╝■ ├√│╞.txt', '╓╨╬──┐┬╝/╩²╛▌.txt'] });

    expect((await setEncoding('gbk')).statusCode).toBe(200);
    expect((await upload('gbk.zip', gbkZip())).json()).toMatchObject({ name_encoding: 'gb18030', files: ['文件 名称.txt', '中文目录/数据.txt'] });

    // Forced UTF-8 on GBK bytes: refused, rather than names full of replacement characters.
    expect((await setEncoding('utf-8')).statusCode).toBe(200);
    const before = prefixLeftovers(prefix);
    const refused = await upload('gbk.zip', gbkZip());
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('zip_name_undecodable');
    expect(prefixLeftovers(prefix)).toEqual(before);
  });

  it('takes a 60-character Chinese name (180 bytes) and refuses a 256-byte segment with zip_name_too_long', async () => {
    const long = '长'.repeat(60);
    const ok = await upload('long.zip', buildZip([{ name: `${long}/${long}.txt`, data: 'x' }]));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().files).toEqual([`${long}/${long}.txt`]);
    expect(fs.readFileSync(path.join(ok.json().source_path, long, `${long}.txt`), 'utf8')).toBe('x');
    // The same name in GBK: 120 bytes in the archive, 180 once created.
    const gbk = await upload('long-gbk.zip', buildZip([{ name: 'g', rawName: Buffer.from('b3a4'.repeat(60), 'hex'), utf8Flag: false, data: 'g' }]));
    expect(gbk.json()).toMatchObject({ files: [long], name_encoding: 'gb18030' });

    const before = prefixLeftovers(prefix);
    const over = await upload('over.zip', buildZip([{ name: `ok/${'长'.repeat(85)}a`, data: 'x' }]));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'zip_name_too_long' });
    expect(over.json().detail).toMatch(/256 bytes of UTF-8, the limit is 255/);
    expect(prefixLeftovers(prefix)).toEqual(before);
  });
});
