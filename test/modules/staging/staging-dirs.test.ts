/** The staging directories a push can start from: real directories under the prefix, newest first. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

describe('GET /api/sync/staging-dirs', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-stagedirs-'));
    t = await makeTestApp({ env: { STAGING_PREFIX: path.join(root, 'svc_upload_') } });
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
        { path: newer, name: 'svc_upload_bbb', modified: expect.any(String), entries: 0 },
        { path: older, name: 'svc_upload_aaa', modified: expect.any(String), entries: 2 },
      ],
    });
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ url: '/api/sync/staging-dirs' })).statusCode).toBe(401);
  });
});
