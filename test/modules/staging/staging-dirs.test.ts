/** The staging directories a push can start from: real directories under the prefix, newest first. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { buildZip, multipart } from './staging-helpers.js';

describe('GET /api/sync/staging-dirs', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-stagedirs-'));
    t = await makeTestApp({ env: { STAGING_PREFIX: path.join(root, 'svc_upload_'), ZIP_MAX_BYTES: '3000000' } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists directories under the prefix, newest first, with their entry counts; never symlinks or files', async () => {
    const older = path.join(root, 'svc_upload_aaa');
    const newer = path.join(root, 'svc_upload_bbb');
    fs.mkdirSync(path.join(older, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(older, 'a.txt'), 'a');
    fs.mkdirSync(newer);
    fs.utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    fs.writeFileSync(path.join(root, 'svc_upload_file'), 'not a dir');
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'svc_upload_link'));
    fs.mkdirSync(path.join(root, 'other_dir'));

    const res = await t.app.inject({ url: '/api/sync/staging-dirs', headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      truncated: false,
      items: [
        { path: newer, name: 'svc_upload_bbb', modified: expect.any(String), entries: 0, zip: null },
        { path: older, name: 'svc_upload_aaa', modified: expect.any(String), entries: 2, zip: null },
      ],
    });
  });

  it('names the ZIP a directory came from (its name, size and arrival), kept beside it, not inside it', async () => {
    const body = multipart('Site Release.zip', buildZip([{ name: 'index.html', data: '<h1>hi</h1>' }]));
    const up = await t.app.inject({ method: 'POST', url: '/api/sync/upload-zip', payload: body.payload, headers: { ...body.headers, ...(await t.auth()) } });
    expect(up.statusCode, up.body).toBe(200);
    const { source_path: dir, size } = up.json();
    expect(fs.readdirSync(dir)).toEqual(['index.html']);
    const res = await t.app.inject({ url: '/api/sync/staging-dirs', headers: await t.auth() });
    const item = res.json().items.find((d: { path: string }) => d.path === dir);
    expect(item.zip).toEqual({ filename: 'Site Release.zip', size, uploaded_at: expect.any(String), file_count: 1 });
    expect(Math.abs(Date.parse(item.zip.uploaded_at) - Date.now())).toBeLessThan(60_000);

    // Deleting the directory removes what was recorded about it.
    const del = await t.app.inject({ method: 'POST', url: '/api/sync/local-file-ops', payload: { path: dir, operation: 'delete' }, headers: await t.auth() });
    expect(del.statusCode, del.body).toBe(200);
    expect(fs.readdirSync(root).filter((n) => n.startsWith(path.basename(dir)))).toEqual([]);
  });

  it('a corrupt origin record is ignored, not an error', async () => {
    const dir = path.join(root, 'svc_upload_ccc');
    fs.mkdirSync(dir);
    fs.writeFileSync(`${dir}.origin.json`, '{"filename": 42');
    const res = await t.app.inject({ url: '/api/sync/staging-dirs', headers: await t.auth() });
    expect(res.json().items.find((d: { path: string }) => d.path === dir)).toMatchObject({ zip: null });
  });

  it('GET /api/sync/limits answers the configured upload limits', async () => {
    const res = await t.app.inject({ url: '/api/sync/limits', headers: await t.auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      zip_max_bytes: 3_000_000,
      zip_max_uncompressed: 2 * 1024 ** 3,
      zip_max_entries: 100_000,
      zip_listing_max: 500,
      upload_max_bytes: 104_857_600,
    });
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ url: '/api/sync/staging-dirs' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/sync/limits' })).statusCode).toBe(401);
  });
});
