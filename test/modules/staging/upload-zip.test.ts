import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import {
  buildZip,
  hasZipCli,
  multipart,
  prefixLeftovers,
  removePrefixLeftovers,
  uniquePrefix,
  zipDir,
} from './staging-helpers.js';

describe.each(dbKinds())('upload-zip on %s', (db) => {
  let t: TestApp;
  let prefix: string;
  let work: string;

  beforeAll(async () => {
    prefix = uniquePrefix();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'staging-zip-test-'));
    t = await makeTestApp({ db, env: { STAGING_PREFIX: prefix, ZIP_MAX_UNCOMPRESSED: String(1024 * 1024) } });
  });
  afterAll(async () => {
    await t?.close();
    removePrefixLeftovers(prefix);
    fs.rmSync(work, { recursive: true, force: true });
  });
  afterEach(() => removePrefixLeftovers(prefix));

  const upload = async (filename: string, content: Buffer, opts: Parameters<typeof multipart>[2] = {}) => {
    const body = multipart(filename, content, opts);
    return t.app.inject({
      method: 'POST',
      url: '/api/sync/upload-zip',
      payload: body.payload,
      headers: { ...body.headers, ...(await t.auth()) },
    });
  };

  /** A refused upload answers 400 and leaves neither a directory nor a scratch file behind. */
  const expectRefused = async (filename: string, content: Buffer, status = 400, opts = {}) => {
    const res = await upload(filename, content, opts);
    expect(res.statusCode, res.body).toBe(status);
    expect(typeof res.json().detail).toBe('string');
    expect(prefixLeftovers(prefix)).toEqual([]);
    return res;
  };

  it.skipIf(!hasZipCli())('extracts an archive made by zip into <prefix><12 hex>, with structure, modes and an audit record', async () => {
    const src = path.join(work, 'src-ok');
    fs.mkdirSync(path.join(src, 'site/css'), { recursive: true });
    fs.mkdirSync(path.join(src, 'empty-dir'), { recursive: true });
    fs.writeFileSync(path.join(src, 'index.html'), '<h1>hi</h1>');
    fs.writeFileSync(path.join(src, 'site/css/app.css'), 'body{}\n'.repeat(1000));
    fs.writeFileSync(path.join(src, 'run.sh'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
    fs.writeFileSync(path.join(src, 'blob.bin'), crypto.randomBytes(50_000));
    const zip = zipDir(src, path.join(work, 'ok.zip'));

    const res = await upload('Site Release.ZIP', zip);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.source_path).toMatch(new RegExp(`^${prefix}[0-9a-f]{12}$`));
    expect(body.file_count).toBe(4);
    expect([...body.files].sort()).toEqual(['blob.bin', 'index.html', 'run.sh', 'site/css/app.css']);
    expect(body.files_truncated).toBe(false);
    expect(body.filename).toBe('Site Release.ZIP');
    expect(body.size).toBe(zip.length);

    const dir = body.source_path as string;
    expect(fs.readFileSync(path.join(dir, 'site/css/app.css'), 'utf8')).toBe('body{}\n'.repeat(1000));
    expect(fs.readFileSync(path.join(dir, 'blob.bin'))).toEqual(fs.readFileSync(path.join(src, 'blob.bin')));
    expect(fs.statSync(path.join(dir, 'empty-dir')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(dir, 'index.html')).mode & 0o777).toBe(0o644);
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dir, 'site')).mode & 0o777).toBe(0o755);
    // Only the extraction directory and the record of its ZIP remain: the archive copy is gone.
    expect(prefixLeftovers(prefix).sort()).toEqual([path.basename(dir), `${path.basename(dir)}.origin.json`]);

    const audit = await t.app.inject({ url: '/api/audit?action=upload_zip', headers: await t.auth() });
    const item = audit.json().items[0];
    expect(item).toMatchObject({ action: 'upload_zip', admin_username: 'admin', target_id: dir });
  });

  it('lists at most 500 files and says so', async () => {
    const entries = Array.from({ length: 520 }, (_, i) => ({ name: `many/f${String(i).padStart(3, '0')}.txt`, data: `${i}` }));
    const res = await upload('many.zip', buildZip(entries));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ file_count: 520, files_truncated: true });
    expect(res.json().files).toHaveLength(500);
    expect(res.json().files[0]).toBe('many/f000.txt');
  });

  it('keeps a multi-byte file name and an empty file', async () => {
    const res = await upload('u.zip', buildZip([{ name: 'données/été.txt', data: 'ok' }, { name: 'empty.txt', data: '' }]));
    expect(res.statusCode, res.body).toBe(200);
    const dir = res.json().source_path;
    expect(fs.readFileSync(path.join(dir, 'données/été.txt'), 'utf8')).toBe('ok');
    expect(fs.statSync(path.join(dir, 'empty.txt')).size).toBe(0);
  });

  it('extracts entries with data descriptors (what streaming writers produce) from the stored archive', async () => {
    const data = crypto.randomBytes(70_000);
    const zip = buildZip([
      { name: 'plain.txt', data: 'first' },
      { name: 'dd/packed.bin', data, dataDescriptor: true },
      { name: 'dd/stored.txt', data: 'stored after a descriptor', method: 0, dataDescriptor: true },
    ]);
    const res = await upload('dd.zip', zip);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ file_count: 3, files: ['plain.txt', 'dd/packed.bin', 'dd/stored.txt'] });
    const dir = res.json().source_path;
    expect(fs.readFileSync(path.join(dir, 'dd/packed.bin')).equals(data)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'dd/stored.txt'), 'utf8')).toBe('stored after a descriptor');
  });

  it('never extracts what only a local header claims: the central directory decides', async () => {
    const hidden = buildZip([
      { name: 'listed.txt', data: 'listed' },
      { name: 'hidden.txt', data: 'smuggled', localOnly: true },
      { name: 'renamed.txt', localName: 'other-name.txt', data: 'renamed' },
    ]);
    const res = await upload('hidden.zip', hidden);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ file_count: 2, files: ['listed.txt', 'renamed.txt'] });
    const dir = res.json().source_path;
    expect(fs.readdirSync(dir).sort()).toEqual(['listed.txt', 'renamed.txt']);
    expect(fs.readFileSync(path.join(dir, 'renamed.txt'), 'utf8')).toBe('renamed');
  });

  it('refuses a name that does not end in .zip, an empty file and a non-zip', async () => {
    await expectRefused('archive.tar', buildZip([{ name: 'a.txt', data: 'a' }]));
    await expectRefused('archive.zip.exe', buildZip([{ name: 'a.txt', data: 'a' }]));
    await expectRefused('empty.zip', Buffer.alloc(0));
    await expectRefused('text.zip', Buffer.from('this is not an archive at all\n'.repeat(100)));
  });

  it('refuses a truncated archive', async () => {
    const zip = buildZip([{ name: 'a.txt', data: crypto.randomBytes(5000) }, { name: 'b.txt', data: 'hello' }]);
    await expectRefused('cut.zip', zip.subarray(0, zip.length - 30));
    await expectRefused('cut2.zip', zip.subarray(0, 2000));
  });

  it('refuses archives whose entries escape the directory', async () => {
    const outside = path.join(path.dirname(prefix), `escaped-${crypto.randomBytes(4).toString('hex')}.txt`);
    await expectRefused('slip.zip', buildZip([{ name: 'ok.txt', data: 'ok' }, { name: `../${path.basename(outside)}`, data: 'pwned' }]));
    await expectRefused('deep-slip.zip', buildZip([{ name: 'a/b/../../../x.txt', data: 'pwned' }]));
    await expectRefused('abs.zip', buildZip([{ name: outside, data: 'pwned' }]));
    await expectRefused('backslash.zip', buildZip([{ name: '..\\..\\x.txt', data: 'pwned' }]));
    await expectRefused('backslash2.zip', buildZip([{ name: 'dir\\file.txt', data: 'x' }]));
    await expectRefused('drive.zip', buildZip([{ name: 'C:/windows/x.txt', data: 'x' }]));
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('refuses a symlink entry, even one that points inside', async () => {
    await expectRefused('link.zip', buildZip([{ name: 'etc-link', data: '/etc', method: 0, unixMode: 0o120777 }]));
    await expectRefused('link2.zip', buildZip([{ name: 'a.txt', data: 'a' }, { name: 'l', data: 'a.txt', method: 0, unixMode: 0o120777 }]));
    await expectRefused('fifo.zip', buildZip([{ name: 'pipe', data: '', method: 0, unixMode: 0o010644 }]));
  });

  it.skipIf(!hasZipCli())('refuses a symlink stored by the zip CLI (-y)', async () => {
    const src = path.join(work, 'src-link');
    fs.mkdirSync(src, { recursive: true });
    fs.writeFileSync(path.join(src, 'a.txt'), 'a');
    fs.symlinkSync('/etc/passwd', path.join(src, 'passwd'));
    await expectRefused('cli-link.zip', zipDir(src, path.join(work, 'link.zip'), ['-y']));
  });

  it('refuses a zip bomb, whether its headers are honest or lie', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x41); // compresses to a few KiB; the cap here is 1 MiB
    await expectRefused('bomb.zip', buildZip([{ name: 'bomb.txt', data: big }]));
    await expectRefused('liar.zip', buildZip([{ name: 'bomb.txt', data: big, declaredSize: 1000 }]));
    const parts = Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.txt`, data: Buffer.alloc(400 * 1024, 0x42) }));
    await expectRefused('sum.zip', buildZip(parts));
  });

  it('refuses corrupt entry data (CRC mismatch) and an archive with no files', async () => {
    await expectRefused('crc.zip', buildZip([{ name: 'a.txt', data: 'hello world', crc: 12345 }]));
    await expectRefused('dirs.zip', buildZip([{ name: 'only/' }, { name: 'only/dirs/' }]));
    await expectRefused('nothing.zip', buildZip([]));
    await expectRefused('dup.zip', buildZip([{ name: 'a.txt', data: '1' }, { name: 'a.txt', data: '2' }]));
    await expectRefused('conflict.zip', buildZip([{ name: 'a', data: '1' }, { name: 'a/b.txt', data: '2' }]));
  });

  it('refuses a request without a file, with the wrong field, or not multipart', async () => {
    await expectRefused('a.zip', buildZip([{ name: 'a.txt', data: 'a' }]), 400, { field: 'other' });
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/sync/upload-zip',
      payload: { file: 'a.zip' },
      headers: await t.auth(),
    });
    expect(noFile.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/sync/upload-zip',
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', ...(await t.auth()) },
    });
    expect(bad.statusCode).toBe(400);
    expect(prefixLeftovers(prefix)).toEqual([]);
  });

  it('needs a login', async () => {
    const body = multipart('a.zip', buildZip([{ name: 'a.txt', data: 'a' }]));
    const res = await t.app.inject({ method: 'POST', url: '/api/sync/upload-zip', payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(401);
    expect(prefixLeftovers(prefix)).toEqual([]);
  });
});

describe.each(dbKinds())('upload-zip limits over real HTTP on %s', (db) => {
  let t: TestApp;
  let prefix: string;
  let base: string;
  // Our own client pool, destroyed before the app closes, so no client socket can hold close() up.
  const agent = new Agent();
  beforeAll(async () => {
    prefix = uniquePrefix();
    t = await makeTestApp({ db, env: { STAGING_PREFIX: prefix, ZIP_MAX_BYTES: '4096' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as AddressInfo;
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await agent.destroy();
    await t?.close();
    removePrefixLeftovers(prefix);
  });
  afterEach(() => removePrefixLeftovers(prefix));

  const post = async (payload: Buffer | Readable, headers: Record<string, string>) =>
    request(`${base}/api/sync/upload-zip`, {
      method: 'POST',
      body: payload,
      headers: { ...headers, ...(await t.auth()) },
      dispatcher: agent,
    });

  it('refuses an upload past ZIP_MAX_BYTES and keeps nothing; one exactly at the limit is fine', async () => {
    const over = buildZip([{ name: 'r.bin', data: crypto.randomBytes(6000), method: 0 }]);
    const body = multipart('big.zip', over);
    const res = await post(body.payload, body.headers);
    expect(res.statusCode).toBe(400);
    expect(((await res.body.json()) as { detail: string }).detail).toMatch(/limit/);
    expect(prefixLeftovers(prefix)).toEqual([]);

    // Exactly 4096 bytes: the end record's comment pads the archive up to the limit.
    let small = buildZip([{ name: 'r.bin', data: crypto.randomBytes(3900), method: 0 }]);
    small.writeUInt16LE(4096 - small.length, small.length - 2);
    small = Buffer.concat([small, Buffer.alloc(4096 - small.length, 0x20)]);
    expect(small.length).toBe(4096);
    const ok = multipart('edge.zip', small);
    const res2 = await post(ok.payload, ok.headers);
    expect(res2.statusCode).toBe(200);
    expect(((await res2.body.json()) as { size: number }).size).toBe(4096);
  });

  it('stops storing a large upload at the limit and still answers 400', async () => {
    // 8 MiB against a 4 KiB cap: the rest is discarded while it streams in, never written.
    const body = multipart('huge.zip', crypto.randomBytes(8 * 1024 * 1024));
    const res = await post(body.payload, body.headers);
    expect(res.statusCode).toBe(400);
    await res.body.text();
    expect(prefixLeftovers(prefix)).toEqual([]);
  });

  it('cleans up when the client goes away mid-upload', async () => {
    const body = multipart('gone.zip', Buffer.alloc(2000, 1));
    const boundary = body.headers['content-type'].split('boundary=')[1];
    const partial = body.payload.subarray(0, body.payload.length - Buffer.byteLength(`\r\n--${boundary}--\r\n`));
    const stream = new Readable({ read() {} });
    stream.push(partial);
    const pending = post(stream, { ...body.headers, 'content-length': String(body.payload.length + 100_000) }).catch(() => null);
    for (let i = 0; i < 100 && prefixLeftovers(prefix).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    // The scratch file and the directory being extracted into, while the body is still arriving.
    expect(prefixLeftovers(prefix)).toHaveLength(2);
    stream.destroy(new Error('client gone'));
    await pending;
    for (let i = 0; i < 100 && prefixLeftovers(prefix).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(prefixLeftovers(prefix)).toEqual([]);
  });
});
