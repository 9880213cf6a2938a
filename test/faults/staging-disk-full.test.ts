/**
 * Fault: the staging file system is full. The staging prefix lives on a 4 MiB tmpfs (with few
 * inodes, so a mkdir can run out too). A ZIP upload that does not fit answers 507
 * `insufficient_storage` and leaves nothing behind (no scratch archive, no half-extracted
 * directory), the service keeps serving, and SFTP work against a server is not affected.
 * Needs root for `mount -t tmpfs`; without it the file skips with a printed reason.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { remoteTestApp, type RemoteTestApp } from '../modules/remote/remote-helpers.js';
import { buildZip, multipart } from '../modules/staging/staging-helpers.js';

const MIB = 1024 * 1024;

/** Mounts a small tmpfs, or says why it cannot (not root, no mount permission in this container). */
function mountSmallTmpfs(): { dir: string } | { reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,nr_inodes=64,mode=0755', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `mount -t tmpfs is not permitted here (run as root): ${String((err as Error).message).split('\n')[0]}` };
  }
}

/** The mount point, or '' when mounting is not permitted (every test then skips). */
let mnt = '';

/** Fills the rest of the tmpfs (blocks or inodes) with files outside the staging prefix. */
function fill(kind: 'blocks' | 'inodes'): void {
  const dir = path.join(mnt, 'filler');
  fs.mkdirSync(dir, { recursive: true });
  try {
    if (kind === 'blocks') fs.writeFileSync(path.join(dir, 'big'), Buffer.alloc(8 * MIB, 1));
    else for (let i = 0; i < 1000; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
}
const unfill = () => fs.rmSync(path.join(mnt, 'filler'), { recursive: true, force: true });
/** Entries the staging code left on the tmpfs (the filler is the test's own). */
const leftovers = () => fs.readdirSync(mnt).filter((n) => n !== 'filler');
const usedBytes = () => Number(execFileSync('df', ['-B1', '--output=used', mnt], { encoding: 'utf8' }).split('\n')[1].trim());

describe('staging file system full (4 MiB tmpfs)', () => {
  let r: RemoteTestApp;

  // Mounted here, not at import: a run that collects this file but filters its tests never mounts.
  beforeAll(async () => {
    const mounted = mountSmallTmpfs();
    if ('reason' in mounted) {
      console.warn(`[staging-disk-full] skipped: ${mounted.reason}`);
      return;
    }
    mnt = mounted.dir;
    r = await remoteTestApp('sqlite', { STAGING_PREFIX: `${mnt}/svc_upload_`, ZIP_MAX_UNCOMPRESSED: String(64 * MIB) });
  });
  afterAll(async () => {
    await r?.close();
    if (mnt) {
      execFileSync('umount', [mnt]);
      fs.rmdirSync(mnt);
    }
  });
  beforeEach((ctx) => {
    if (!mnt) ctx.skip();
  });
  afterEach(() => {
    if (!mnt) return;
    unfill();
    for (const n of leftovers()) fs.rmSync(path.join(mnt, n), { recursive: true, force: true });
  });

  const upload = async (content: Buffer) => {
    const body = multipart('site.zip', content);
    return r.t.app.inject({ method: 'POST', url: '/api/sync/upload-zip', payload: body.payload, headers: { ...body.headers, ...(await r.t.auth()) } });
  };
  const small = () => buildZip([{ name: 'index.html', data: '<h1>ok</h1>' }]);
  const expect507 = (res: { statusCode: number; body: string; json(): { detail: string; code: string } }) => {
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json().code).toBe('insufficient_storage');
    expect(res.json().detail).toMatch(/disk is full/);
  };

  it('an archive larger than the free space: 507, no scratch file, no directory, the space is free again', async () => {
    const before = usedBytes();
    // Random bytes do not compress: the stored archive alone is 6 MiB.
    const res = await upload(buildZip([{ name: 'big.bin', data: crypto.randomBytes(6 * MIB), method: 0 }]));
    expect507(res);
    expect(leftovers()).toEqual([]);
    expect(usedBytes()).toBeLessThanOrEqual(before + 64 * 1024);
  });

  it('an archive that fits but expands beyond the free space: 507, nothing half-extracted is left', async () => {
    // 16 KiB of archive, 8 MiB once extracted: the extraction, not the upload, hits ENOSPC.
    const res = await upload(buildZip([{ name: 'a/zeros.bin', data: Buffer.alloc(8 * MIB) }, { name: 'b.txt', data: 'b' }]));
    expect507(res);
    expect(leftovers()).toEqual([]);
  });

  it('a disk filled by something else: 507; once space is freed, the same service accepts the next upload', async () => {
    fill('blocks');
    expect507(await upload(buildZip([{ name: 'x.bin', data: crypto.randomBytes(256 * 1024), method: 0 }])));
    expect(leftovers()).toEqual([]);
    unfill();
    const ok = await upload(small());
    expect(ok.statusCode, ok.body).toBe(200);
    const dest = ok.json().source_path as string;
    expect(fs.readFileSync(path.join(dest, 'index.html'), 'utf8')).toBe('<h1>ok</h1>');
  });

  it('local-file-ops mkdir when the inodes are used up: 507, and the directory works again once freed', async () => {
    const parent = `${mnt}/svc_upload_ops`;
    fs.mkdirSync(parent);
    fill('inodes');
    const res = await r.post('/api/sync/local-file-ops', { operation: 'mkdir', path: `${parent}/new` });
    expect507(res);
    expect(fs.existsSync(`${parent}/new`)).toBe(false);
    unfill();
    const ok = await r.post('/api/sync/local-file-ops', { operation: 'mkdir', path: `${parent}/new` });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the SFTP side is not affected: with staging full, an upload to a server and a remote browse succeed', async () => {
    fill('blocks');
    const dir = r.remoteDir();
    const boundary = '----disk-full';
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="server_id"\r\n\r\n${r.serverId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="remote_path"\r\n\r\n${dir}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n` +
        `${'z'.repeat(512 * 1024)}\r\n--${boundary}--\r\n`,
    );
    const up = await r.t.app.inject({
      method: 'POST',
      url: '/api/sync/upload',
      payload,
      headers: { ...(await r.t.auth()), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(fs.statSync(path.join(dir, 'f.bin')).size).toBe(512 * 1024);
    const browse = await r.post('/api/sync/browse', { server_id: r.serverId, path: dir });
    expect(browse.statusCode, browse.body).toBe(200);
    expect(JSON.stringify(browse.json())).toContain('f.bin');
  });
});
