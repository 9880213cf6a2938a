import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeFileName } from '../../../src/modules/remote/upload.service.js';
import { startSshd } from '../../fixtures/sshd.js';
import { dbKinds } from '../../helpers/targets.js';
import { markerPath, remoteTestApp, type RemoteTestApp } from './remote-helpers.js';

const BOUNDARY = '----fleet-upload-test-boundary';
type Part = { field: string; value: string } | { field: string; filename: string; content: Buffer | (() => AsyncIterable<Buffer>) };

function partHeader(p: Part): Buffer {
  const disposition = 'filename' in p
    ? `form-data; name="${p.field}"; filename="${p.filename.replace(/"/g, '%22')}"\r\nContent-Type: application/octet-stream`
    : `form-data; name="${p.field}"`;
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`);
}

/** A multipart body streamed part by part; file contents may be generated on the fly. */
function multipartStream(parts: Part[]): Readable {
  return Readable.from((async function* () {
    for (const p of parts) {
      yield partHeader(p);
      if (!('filename' in p)) yield Buffer.from(p.value);
      else if (Buffer.isBuffer(p.content)) yield p.content;
      else yield* p.content();
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${BOUNDARY}--\r\n`);
  })());
}

async function multipartBuffer(parts: Part[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of multipartStream(parts)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe.each(dbKinds())('POST /api/sync/upload on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;
  const upload = async (parts: Part[], stream = false) =>
    r.t.app.inject({
      method: 'POST',
      url: '/api/sync/upload',
      headers: { ...(await r.t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: stream ? multipartStream(parts) : await multipartBuffer(parts),
    });
  const sid = () => ({ field: 'server_id', value: String(r.serverId) });
  const file = (filename: string, content: string | Buffer) => ({ field: 'file', filename, content: Buffer.from(content) });

  beforeAll(async () => {
    r = await remoteTestApp(db, { UPLOAD_MAX_BYTES: String(100 * 1024 * 1024) });
    dir = r.remoteDir();
  });
  afterAll(async () => r?.close());

  it('writes the file to remote_path/name, overwriting, and answers with the full path and size', async () => {
    const res = await upload([sid(), { field: 'remote_path', value: `${dir}/` }, file('hello.txt', 'hello world')]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, server_id: r.serverId, remote_path: `${dir}/hello.txt`, filename: 'hello.txt', size: 11 });
    expect(fs.readFileSync(`${dir}/hello.txt`, 'utf8')).toBe('hello world');
    const again = await upload([sid(), { field: 'remote_path', value: dir }, file('hello.txt', 'v2')]);
    expect(again.statusCode).toBe(200);
    expect(fs.readFileSync(`${dir}/hello.txt`, 'utf8')).toBe('v2');
    const rows = await r.audit('file_upload');
    expect(rows[0]).toMatchObject({ target_type: 'server', target_id: String(r.serverId), admin_username: 'admin' });
  });

  it('remote_path defaults to /tmp; / and \\ in the name become _', async () => {
    const name = `fleet-upload-${crypto.randomBytes(4).toString('hex')}`;
    const res = await upload([sid(), file(`a/b\\${name}`, 'x')]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ remote_path: `/tmp/a_b_${name}`, filename: `a_b_${name}` });
    expect(fs.existsSync(`/tmp/a_b_${name}`)).toBe(true);
    fs.rmSync(`/tmp/a_b_${name}`);
    const odd = await upload([sid(), { field: 'remote_path', value: dir }, file("-x '$(touch y)`z`", 'x')]);
    expect(odd.statusCode).toBe(200);
    expect(fs.existsSync(`${dir}/-x '$(touch y)\`z\``)).toBe(true);
  });

  it('400 for a missing or non-numeric server_id, no file, an empty name or a .. component', async () => {
    const cases: Array<[Part[], RegExp]> = [
      [[file('a.txt', 'x')], /server_id/],
      [[{ field: 'server_id', value: 'abc' }, file('a.txt', 'x')], /numeric/],
      [[{ field: 'server_id', value: '' }, file('a.txt', 'x')], /numeric/],
      [[file('a.txt', 'x'), { field: 'server_id', value: 'abc' }], /numeric/],
      [[sid(), file('../a.txt', 'x')], /\.\./],
      [[file('a/../a.txt', 'x'), sid()], /\.\./],
      [[sid()], /No file/],
      [[], /server_id/],
      [[sid(), file('', 'x')], /No file/],
      [[sid(), file('..', 'x')], /\.\./],
      [[sid(), { field: 'remote_path', value: `${dir}/../etc` }, file('a.txt', 'x')], /\.\./],
      [[sid(), { field: 'remote_path', value: `/tmp/${'x'.repeat(70_000)}` }, file('a.txt', 'x')], /too long/],
      // Ids are bounded like every JSON id (a larger one would be a range error on PostgreSQL).
      [[{ field: 'server_id', value: '2147483648' }, file('a.txt', 'x')], /between 1 and 2147483647/],
      [[file('a.txt', 'x'), { field: 'server_id', value: '99999999999999' }], /between 1 and 2147483647/],
      [[{ field: 'server_id', value: '0' }, file('a.txt', 'x')], /between 1 and 2147483647/],
      [[sid(), { field: 'remote_path', value: `${dir}/a\u0000b` }, file('a.txt', 'x')], /NUL/],
      [[sid(), file('a\u0000b.txt', 'x')], /NUL/],
    ];
    for (const [parts, detail] of cases) {
      const res = await upload(parts);
      expect(res.statusCode, JSON.stringify(parts.map((p) => p.field))).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    expect(fs.existsSync(`${dir}/a.txt`)).toBe(false);
    const json = await r.t.app.inject({ method: 'POST', url: '/api/sync/upload', headers: await r.t.auth(), payload: { server_id: 1 } });
    expect(json.statusCode).toBe(400);
  });

  it('fields after the file: the file waits in a private temp file, then goes to the server', async () => {
    const spools = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('fleet-upload-')).length;
    const before = spools();
    const content = crypto.randomBytes(300_000);
    const res = await upload([file('first.bin', content), sid(), { field: 'remote_path', value: dir }], true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ remote_path: `${dir}/first.bin`, size: content.length });
    expect(sha256(fs.readFileSync(`${dir}/first.bin`))).toBe(sha256(content));
    const missing = await upload([file('nowhere.txt', 'x'), { field: 'server_id', value: '999999' }]);
    expect(missing.statusCode).toBe(404);
    const noId = await upload([file('nowhere.txt', 'x'), { field: 'remote_path', value: dir }]);
    expect(noId.statusCode).toBe(400);
    expect(noId.json().detail).toMatch(/server_id is required/);
    expect(fs.existsSync(`${dir}/nowhere.txt`)).toBe(false);
    expect(spools()).toBe(before);
  });

  it('a remote_path sent after a file already streamed to the default directory is refused and the file removed', async () => {
    const res = await upload([sid(), file('late.txt', 'x'), { field: 'remote_path', value: '/tmp' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/must come before the file part/);
    expect(fs.existsSync('/tmp/late.txt')).toBe(false);
  });

  it('404 for a missing server; 403 on permission denied; 400 for another SFTP error; 502 when unreachable', async () => {
    const missing = await upload([{ field: 'server_id', value: '999999' }, file('a.txt', 'x')]);
    expect(missing.statusCode).toBe(404);
    const denied = await upload([sid(), { field: 'remote_path', value: '/root' }, file('a.txt', 'x')]);
    expect(denied.statusCode).toBe(403);
    const noDir = await upload([sid(), { field: 'remote_path', value: `${dir}/no/such/dir` }, file('a.txt', 'x')]);
    expect(noDir.statusCode).toBe(400);
    const dead = await r.deadServer();
    const gone = await upload([{ field: 'server_id', value: String(dead) }, file('a.txt', 'x')]);
    expect(gone.statusCode).toBe(502);
  });

  it('hostile remote paths and names are plain SFTP paths: nothing runs', async () => {
    const marker = markerPath();
    for (const p of [`${dir}/$(touch ${marker})`, `${dir}/\`touch ${marker}\``, `${dir}/'; touch ${marker} #`]) {
      const res = await upload([sid(), { field: 'remote_path', value: p }, file('a.txt', 'x')]);
      expect(res.statusCode).toBe(400);
    }
    const named = await upload([sid(), { field: 'remote_path', value: dir }, file(`$(touch ${marker})`, 'x')]);
    expect(named.statusCode).toBe(200);
    expect(named.json().filename).toBe(`$(touch _tmp_${marker.slice(5)})`);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a client that disconnects mid-upload leaves no partial remote file; meanwhile only a hidden temporary name exists', async () => {
    await r.t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = r.t.app.server.address() as AddressInfo;
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/api/sync/upload',
      headers: { ...(await r.t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    req.on('error', () => {});
    try {
      req.write(await multipartBuffer([sid(), { field: 'remote_path', value: dir }]).then((b) => b.subarray(0, b.length - `--${BOUNDARY}--\r\n`.length)));
      req.write(partHeader({ field: 'file', filename: 'cut.bin', content: Buffer.alloc(0) }));
      const mine = () => fs.readdirSync(dir).filter((n) => n.includes('cut.bin'));
      for (let i = 0; i < 50 && mine().length === 0; i++) {
        req.write(crypto.randomBytes(64 * 1024));
        await new Promise((res) => setTimeout(res, 20));
      }
      // The bytes so far are under the temporary name; the final name does not exist until the whole file is there.
      expect(mine()).toEqual([expect.stringMatching(/^\.cut\.bin\.[0-9a-f]{8}\.fleet-part$/)]);
      req.destroy();
      for (let i = 0; i < 100 && mine().length > 0; i++) await new Promise((res) => setTimeout(res, 50));
      expect(mine()).toEqual([]);
    } finally {
      req.destroy();
    }
  });

  it('the SSH connection dropping mid-transfer is a 502', async () => {
    const own = await startSshd();
    try {
      const id = await r.createServer({ name: `own-${own.port}`, port: own.port, private_key: own.privateKey });
      const content = async function* () {
        for (let i = 0; i < 400; i++) {
          if (i === 30) own.kill();
          yield crypto.randomBytes(64 * 1024);
          await new Promise((res) => setTimeout(res, 2));
        }
      };
      const res = await upload([{ field: 'server_id', value: String(id) }, { field: 'remote_path', value: dir }, { field: 'file', filename: 'drop.bin', content }], true);
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().detail).toMatch(/connection/i);
    } finally {
      await own.stop();
      fs.rmSync(`${dir}/drop.bin`, { force: true });
    }
  }, 60_000);

  it('streams ~50 MB straight through: the remote bytes match and memory stays flat', async () => {
    const hash = crypto.createHash('sha256');
    const total = 50 * 1024 * 1024;
    // One random block sent over and over: the test itself makes no garbage, so the RSS peak
    // measures the service's buffering, not the collector's timing.
    const block = crypto.randomBytes(256 * 1024);
    const content = async function* () {
      for (let sent = 0; sent < total; sent += block.length) {
        hash.update(block);
        yield block;
      }
    };
    // Collected before each sample: what the upload keeps alive, not garbage the collector has
    // not reached yet (multipart parsing and SFTP packets copy every chunk once).
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('run with --expose-gc (vitest.config.ts sets it)');
    gc();
    let peak = process.memoryUsage().rss;
    const base = peak;
    const liveBase = process.memoryUsage().arrayBuffers;
    let livePeak = 0;
    const timer = setInterval(() => {
      gc();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      livePeak = Math.max(livePeak, m.arrayBuffers - liveBase);
    }, 20);
    const res = await upload([sid(), { field: 'remote_path', value: dir }, { field: 'file', filename: 'big.bin', content }], true);
    clearInterval(timer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().size).toBe(total);
    expect(sha256(fs.readFileSync(`${dir}/big.bin`))).toBe(hash.digest('hex'));
    // Buffering the file would add at least its own 50 MB.
    expect(peak - base).toBeLessThan(48 * 1024 * 1024);
    expect(livePeak).toBeLessThan(16 * 1024 * 1024);
  }, 60_000);

  it('an oversize upload is cut off at the limit: 400 and no remote file, partial or whole', async () => {
    const small = await remoteTestApp(db, { UPLOAD_MAX_BYTES: String(5 * 1024 * 1024) });
    try {
      let generated = 0;
      const content = async function* () {
        for (let i = 0; i < 80; i++) {
          generated += 256 * 1024;
          yield crypto.randomBytes(256 * 1024);
        }
      };
      const res = await small.t.app.inject({
        method: 'POST',
        url: '/api/sync/upload',
        headers: { ...(await small.t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipartStream([
          { field: 'server_id', value: String(small.serverId) },
          { field: 'remote_path', value: dir },
          { field: 'file', filename: 'too-big.bin', content },
        ]),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/limit/);
      expect(res.headers.connection).toBe('close');
      expect(fs.existsSync(`${dir}/too-big.bin`)).toBe(false);
      // Reading stopped soon after the limit, not at the end of the 20 MB body.
      expect(generated).toBeLessThan(12 * 1024 * 1024);
      // The same with the file first (spooled locally): cut off too, and no temp file left.
      const spools = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('fleet-upload-')).length;
      const before = spools();
      generated = 0;
      const first = await small.t.app.inject({
        method: 'POST',
        url: '/api/sync/upload',
        headers: { ...(await small.t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipartStream([
          { field: 'file', filename: 'too-big.bin', content },
          { field: 'server_id', value: String(small.serverId) },
        ]),
      });
      expect(first.statusCode).toBe(400);
      expect(first.json().detail).toMatch(/limit/);
      expect(generated).toBeLessThan(12 * 1024 * 1024);
      expect(spools()).toBe(before);
      // Exactly the limit is still fine.
      const ok = await small.t.app.inject({
        method: 'POST',
        url: '/api/sync/upload',
        headers: { ...(await small.t.auth()), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: await multipartBuffer([
          { field: 'server_id', value: String(small.serverId) },
          { field: 'remote_path', value: dir },
          { field: 'file', filename: 'exact.bin', content: Buffer.alloc(5 * 1024 * 1024, 1) },
        ]),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(fs.statSync(`${dir}/exact.bin`).size).toBe(5 * 1024 * 1024);
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('upload file names', () => {
  it('replaces separators and refuses empty, . and ..', () => {
    expect(sanitizeFileName('a/b\\c')).toBe('a_b_c');
    for (const dotdot of ['../x', 'a/../b.txt', '..\\c.txt', 'a\\..', '..']) expect(() => sanitizeFileName(dotdot)).toThrow(/"\.\."/);
    expect(sanitizeFileName('a..b/..c')).toBe('a..b_..c');
    for (const bad of ['', '.', '..', 'a\u0000b']) expect(() => sanitizeFileName(bad)).toThrow();
    expect(path.basename(sanitizeFileName('/etc/passwd'))).toBe('_etc_passwd');
  });
});
